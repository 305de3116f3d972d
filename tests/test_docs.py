"""The documentation: the site builds with `mkdocs build --strict`, and every command shown in it runs.

Each ```sh block of README.md and docs/*.md is cut into commands (a trailing backslash continues a line, a heredoc
is part of its command) and run in order, page by page, in a fresh folder that sees the repository (run.py, the
packages, data, .venv) but writes its own runs/. A command that cannot run offline (it names a real model, an API
base, a Ray cluster, the optional local model) is skipped with its reason, and the test says which; `make test` is
this very suite; a page server (`serve`) is started on a free port, asked for its page, and stopped; `make run`'s
day is cut to its first hour (the whole day runs in tests/smallville/test_cli.py's end-to-end tests). A `run.py`
command alone on its line runs in the test's own process, through the function run.py calls.
"""

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from testing import free_port, serve_page, stop_page

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# What a docs workspace sees of the repository (everything else it writes itself); README.md because `make`, when
# pyproject.toml is newer than the last sync, builds the package, and the build reads it.
SHARED = ["run.py", "smallville", "agents", "memory", "environment", "data", "benchmarks", "scripts", "examples"]
SHARED += ["testing", ".venv", ".cache", "Makefile", "pyproject.toml", "uv.lock", "docs", "mkdocs.yml", "README.md"]
COMMAND_TIMEOUT_S = 600

# Commands that cannot run offline on a fresh clone, by what they need (the first pattern that matches says why).
NOT_OFFLINE = [
    (r"--llm (?!offline\b)\S+|--judge (?!offline\b)\S+|--route \S+=(?!offline)", "names a real model"),
    (r"--embedder (openai|ollama|gemini|anthropic|hosted_vllm)/", "names a real embedding model"),
    (r"--api-base", "needs a model server"),
    (r"\bray start\b|--ray (?!local\b)\S+", "needs a Ray cluster"),
    (r"make local-llm|-m local_llm|bench_local_llm", "needs the optional local model (make local-llm)"),
    (r"\bmkdocs serve\b", "serves the site until stopped (tests/test_docs.py builds it)"),
]


@dataclass(frozen=True)
class Command:
    """One command of a docs page: its text as shown and where it is."""

    text: str
    page: str
    line: int

    @property
    def skip_reason(self) -> str | None:
        """Why this command is not run here, or None."""
        if re.match(r"make test\b", self.text):
            return "runs this very test suite"
        for pattern, reason in NOT_OFFLINE:
            if re.search(pattern, self.text):
                return reason
        program = self.text.split()[0]
        if "/" not in program and program not in {"make", "cat", "cd", "export"} and shutil.which(program) is None:
            return f"{program} is not installed here"
        return None

    @property
    def serves(self) -> bool:
        """Whether it starts the page server (which runs until stopped)."""
        return bool(re.match(r"make serve\b", self.text) or re.search(r"run\.py serve\b", self.text))


def sh_blocks(text: str) -> list[tuple[int, str]]:
    """The ```sh blocks of a Markdown text, each with the line its first command is on."""
    blocks, inside, start, lines = [], False, 0, []
    for number, line in enumerate(text.splitlines(), start=1):
        if not inside and line.strip() == "```sh":
            inside, start, lines = True, number + 1, []
        elif inside and line.strip() == "```":
            blocks.append((start, "\n".join(lines)))
            inside = False
        elif inside:
            lines.append(line)
    return blocks


def commands_of(text: str, page: str) -> list[Command]:
    """The commands of a page's sh blocks, in order."""
    found = []
    for start, block in sh_blocks(text):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            first = index
            command = lines[index]
            heredoc = re.search(r"<<-?\s*'?(\w+)'?", command)
            while command.rstrip().endswith("\\") and index + 1 < len(lines):
                index += 1
                command = command.rstrip()[:-1].rstrip() + " " + lines[index].strip()
            if heredoc:
                end = heredoc.group(1)
                while index + 1 < len(lines) and lines[index].strip() != end:
                    index += 1
                    command += "\n" + lines[index]
            index += 1
            text_only = re.sub(r"(^|\s)#.*$", "", command, flags=re.MULTILINE) if not heredoc else command
            if text_only.strip():
                found.append(Command(text_only.strip(), page, start + first))
    return found


def page_commands() -> list[tuple[str, list[Command]]]:
    """Each page's commands; a page whose commands are another's (the site's home is the README's) once."""
    seen, pages = set(), []
    for path in PAGES:
        commands = commands_of(path.read_text(), path.relative_to(ROOT).as_posix())
        key = tuple(command.text for command in commands)
        if commands and key not in seen:
            seen.add(key)
            pages.append((path.relative_to(ROOT).as_posix(), commands))
    return pages


def workspace(tmp_path: Path) -> Path:
    """A folder that sees the repository's code, data and environment, and writes its own runs."""
    for name in SHARED:
        if (ROOT / name).exists():
            (tmp_path / name).symlink_to(ROOT / name)
    return tmp_path


def environment() -> dict:
    """The commands' environment: offline, whatever the developer's shell holds."""
    env = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    env.update({"LITELLM_LOCAL_MODEL_COST_MAP": "True", "SOLARA_TELEMETRY_MIXPANEL_ENABLE": "False"})
    return env


def run_server(command: Command, cwd: Path) -> None:
    """Start the page server on a free port, fetch its page, stop it."""
    port = free_port()
    if command.text.startswith("make serve"):
        arguments = re.search(r'ARGS="([^"]*)"', command.text)
        text = f'make serve ARGS="{arguments.group(1) if arguments else ""} --port {port}"'
    else:
        text = re.sub(r"--port \d+", "", command.text) + f" --port {port}"
    try:
        server = serve_page(
            command=["bash", "-c", text], port=port, env=environment(), cwd=cwd, new_session=True, timeout_s=240
        )
    except RuntimeError as error:
        raise AssertionError(f"{command.page}:{command.line}: {text}\n{error}") from None
    stop_page(server.process, timeout_s=60)


# `.venv/bin/python run.py ...` alone on its line runs in this process (smallville.cli.main, as run.py calls it):
# the same code without paying the imports (3-4 s) once per command.
IN_PROCESS = re.compile(r"\.venv/bin/python run\.py (?P<args>[^|;&<>\n]*)")


def run_in_process(command: Command, arguments: str, cwd: Path) -> None:
    """Run a run.py command through smallville.cli.main in `cwd`; it must succeed without a traceback."""
    from smallville.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(shlex.split(arguments))
    where = f"{command.page}:{command.line}: {command.text}"
    assert code == 0, f"{where}\nexit {code}\n{err.getvalue()[-3000:]}"
    assert "Traceback" not in err.getvalue(), f"{where}\n{err.getvalue()[-3000:]}"


def run_command(command: Command, cwd: Path) -> None:
    """Run one command as shown (make run cut to its first hour); it must succeed without a traceback."""
    text = command.text
    alone = IN_PROCESS.fullmatch(text)
    if alone:
        run_in_process(command, alone.group("args"), cwd)
        return
    if re.match(r"make run\b", text):
        arguments = re.search(r'ARGS="([^"]*)"', text)
        text = f'make run ARGS="{arguments.group(1) if arguments else ""} --until 2023-02-13T01:00 --embedder hashing"'
    result = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", text], cwd=cwd, env=environment(), capture_output=True, text=True,
        timeout=COMMAND_TIMEOUT_S, check=False,
    )  # fmt: skip
    where = f"{command.page}:{command.line}: {text}"
    assert result.returncode == 0, f"{where}\nexit {result.returncode}\n{result.stderr[-3000:]}"
    assert "Traceback" not in result.stderr, f"{where}\n{result.stderr[-3000:]}"


def test_commands_are_cut_as_a_shell_reads_them():
    text = """
```sh
.venv/bin/python run.py simulate --until 2023-02-13T12:00 \\
    --out runs/a      # a comment
# only a comment
cat > plan.toml <<'TOML'
[x]
y = 1
TOML
.venv/bin/python run.py simulate --llm openai/gpt-4o-mini   # a real model
make test ARGS="-m 'not slow'"
make serve ARGS="--agents 5"
```
"""
    commands = commands_of(text, "page.md")
    assert [command.text for command in commands] == [
        ".venv/bin/python run.py simulate --until 2023-02-13T12:00 --out runs/a",
        "cat > plan.toml <<'TOML'\n[x]\ny = 1\nTOML",
        ".venv/bin/python run.py simulate --llm openai/gpt-4o-mini",
        "make test ARGS=\"-m 'not slow'\"",
        'make serve ARGS="--agents 5"',
    ]
    assert [command.skip_reason for command in commands] == [
        None, None, "names a real model", "runs this very test suite", None
    ]  # fmt: skip
    assert commands[4].serves and not commands[0].serves


def test_the_docs_show_commands_and_most_run_offline():
    everything = [command for _, commands in page_commands() for command in commands]
    assert len(everything) >= 30
    skipped = [command for command in everything if command.skip_reason]
    assert len(skipped) < len(everything) / 2, [f"{c.page}:{c.line} {c.skip_reason}" for c in skipped]


@pytest.mark.slow
def test_the_site_builds_with_no_warning(tmp_path):
    result = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "mkdocs"), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    for page in ("index.html", "browser/index.html", "lab-notebook/index.html", "api/memory/index.html"):
        assert (tmp_path / "site" / page).is_file(), page
    assert "MemoryStream" in (tmp_path / "site" / "api" / "memory" / "index.html").read_text()
    home = (tmp_path / "site" / "index.html").read_text()
    # The home page is the README, its links into docs/ made the site's (scripts/mkdocs_readme.py).
    assert "Generative agents after Park et al. 2023" in home
    assert 'href="evaluation/' in home and 'src="img/' in home and 'href="docs/' not in home


def test_the_site_home_includes_the_readme_rather_than_copying_it():
    assert (ROOT / "docs" / "index.md").read_text().strip() == '--8<-- "README.md"'


def quick_batch_tells_its_conditions_apart(cwd: Path) -> None:
    """data/batches/quick.toml, as batch.md runs it, ends with other figures in each condition (it was identical)."""
    import pandas as pd

    results = pd.read_csv(cwd / "batches" / "quick" / "results.csv")
    means = results.groupby("condition")[["density_end", "aware_party_end"]].mean()
    assert means.loc["full", "density_end"] > means.loc["no_reflection_planning", "density_end"]
    assert means.loc["full", "aware_party_end"] > means.loc["no_reflection_planning", "aware_party_end"]
    assert (results["density_end"] > results["density_start"]).any()  # relationships formed


# What a page's commands must have produced, beyond succeeding.
AFTERWARDS = {"docs/batch.md": quick_batch_tells_its_conditions_apart}


@pytest.mark.slow
@pytest.mark.parametrize(("page", "commands"), page_commands(), ids=[page for page, _ in page_commands()])
def test_every_command_of_a_page_runs(page, commands, tmp_path, monkeypatch):
    for key in [key for key in os.environ if key.endswith("_API_KEY")]:
        monkeypatch.delenv(key)  # offline, whatever the developer's shell holds
    cwd = workspace(tmp_path)
    skipped = []
    for command in commands:
        if command.skip_reason:
            skipped.append(f"{command.line}: {command.skip_reason}")
        elif command.serves:
            run_server(command, cwd)
        else:
            run_command(command, cwd)
    if page in AFTERWARDS:
        AFTERWARDS[page](cwd)
    if skipped:
        print(f"{page}: not run here: " + "; ".join(skipped), file=sys.stderr)
