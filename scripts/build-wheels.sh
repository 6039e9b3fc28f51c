#!/bin/sh
# Release artefacts into dist/: the pure wheel (py3-none-any) and the sdist, then the compiled
# (mypyc) wheels of this platform for CPython 3.11, 3.12 and 3.13 with cibuildwheel, which
# reads [tool.cibuildwheel] in pyproject.toml (SHEDKIT_COMPILE=1, tests of every wheel).
#
#   sh scripts/build-wheels.sh            # pure wheel + sdist + compiled wheels
#   sh scripts/build-wheels.sh pure       # pure wheel + sdist only
#
# Linux wheels are built in manylinux containers (Docker or Podman must run); on macOS and
# Windows cibuildwheel uses the python.org CPythons it installs. Run it once per platform
# (a CI matrix of ubuntu, macos and windows runners) and upload dist/ of each.
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -m pip install --quiet "build>=1.2"
"$PYTHON" -m build --sdist --wheel --outdir dist .
if [ "${1:-}" = pure ]; then
    exit 0
fi
"$PYTHON" -m pip install --quiet "cibuildwheel>=2.21"
"$PYTHON" -m cibuildwheel --output-dir dist .
