#!/usr/bin/env python3
"""Smallville on Mesa, from the command line: `python run.py --help` lists the commands."""

import sys

from smallville.cli import main

if __name__ == "__main__":
    sys.exit(main())
