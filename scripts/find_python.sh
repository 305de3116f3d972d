#!/bin/sh
# Prints the path of a Python >= 3.12 on this machine, or says what to install and fails.
# Order: $PYTHON, plain python3.12 (the measured version), newer python3.x / python3 on PATH, then pyenv's installed versions (whose shims refuse
# to run a version that is not selected, so we call the interpreter binary directly). Never downloads one.
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
for c in "${PYTHON:-}" python3.12 python3.13 python3.14 python3; do
    [ -n "$c" ] || continue
    p=$(command -v "$c" 2>/dev/null) || continue
    if ok "$p"; then echo "$p"; exit 0; fi
done
root=$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")
for p in $(ls -d "$root"/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V); do
    if ok "$p"; then echo "$p"; exit 0; fi
done
echo "error: no Python >= 3.12 found; install one (e.g. 'apt install python3.12' or 'pyenv install 3.12') or set PYTHON=/path/to/python3.12" >&2
exit 1
