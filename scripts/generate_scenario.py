"""Write the scale series' towns: data/scenarios/the_ville_n100.json and the_ville_n250.json, and their people.

The personas are derived from the 25 (scenarios/derived_town.py says how); the output is a function of the seed,
and tests/smallville/test_derived_town.py checks that the committed files are what this writes. With --tiled FOLDER
it writes instead, into FOLDER, the towns whose copies of the 25 each live on their own copy of the map (not
committed; run one with `run.py simulate --scenario FOLDER/the_ville_tiled_n100.json`).

    .venv/bin/python scripts/generate_scenario.py [--sizes 100,250] [--seed 0] [--tiled FOLDER]
"""

import argparse
from pathlib import Path

from smallville.scenarios.derived_town import write_derived_town, write_tiled_town


def main() -> None:
    """Parse the sizes and the seed, write the files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,250", help="the towns' sizes, comma-separated (each above 25)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiled", metavar="FOLDER", help="write the tiled towns into this folder instead")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    if args.tiled:
        for size in sizes:
            print(f"wrote {write_tiled_town(size, Path(args.tiled).resolve(), args.seed)}")
        return
    written = write_derived_town(sizes, args.seed)
    print(f"wrote {len(written)} files")


if __name__ == "__main__":
    main()
