#!/usr/bin/env bash
# python_install.sh — `pip install ./python` with libsqz shipped in the package, into a fresh folder; the installed copy, imported from elsewhere, runs.
# usage: python_install.sh PYTHON path/to/python path/to/libsqz.so
set -eu
py="$1" src="$2" lib="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$src" "$work/src" # pip builds in place (build/, *.egg-info): the checkout stays clean
rm -rf "$work/src/tests"
cp -L "$lib" "$work/src/sqz/libsqz.so" # package data: installed with the package
PIP_ROOT_USER_ACTION=ignore "$py" -m pip install --quiet --disable-pip-version-check --no-build-isolation --no-deps --no-index --target "$work/site" "$work/src"
cd "$work"
env -u SQZ_LIBRARY PYTHONPATH="$work/site" "$py" -c "
import os, sqz
assert sqz.__file__.startswith('$work/site/'), sqz.__file__
assert sqz.library_path.startswith('$work/site/'), sqz.library_path
with sqz.Context('cpu') as c:
    f = c.domain('fractal:sierpinski-carpet:3').field('u8').fill_random(0.4, 7).life(10)
    print('installed sqz', sqz.version(), 'from', sqz.library_path, 'live', f.count())
"
