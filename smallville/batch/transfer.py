"""A cell folder as bytes and back: how results cross between Ray nodes that share no disk.

The folder is packed as a gzipped tar right after a checkpoint, when its files agree with each other, and unpacked
on the other side next to its destination, then swapped in with renames, so a reader never sees half a folder.
"""

import io
import shutil
import tarfile
from pathlib import Path


def pack(folder: Path) -> bytes:
    """The folder's files as a gzipped tar (paths relative to the folder)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=3) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.name.endswith(".tmp"):
                archive.add(path, arcname=str(path.relative_to(folder)))
    return buffer.getvalue()


def unpack(data: bytes, folder: Path) -> None:
    """Replace `folder` by the packed folder."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    incoming = folder.with_name(f".{folder.name}.incoming")
    outgoing = folder.with_name(f".{folder.name}.outgoing")
    for stale in (incoming, outgoing):
        shutil.rmtree(stale, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        archive.extractall(incoming, filter="data")
    if folder.exists():
        folder.rename(outgoing)
    incoming.rename(folder)
    shutil.rmtree(outgoing, ignore_errors=True)
