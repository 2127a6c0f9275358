#!/usr/bin/env bash
# python_install.sh — `pip install ./python` into a fresh venv: scikit-build-core compiles libsqz with the repository's CMake into the package; the installed copy, imported from elsewhere with no SQZ_LIBRARY, passes the package's tests.
# usage: python_install.sh PYTHON REPOSITORY
# The venv sees the system's NumPy and pytest (--system-site-packages); scikit-build-core comes from the
# system when it has it, else from the package index (pip's own settings apply: PIP_FIND_LINKS, PIP_NO_INDEX).
# The install itself is the documented offline one: --no-build-isolation, nothing fetched. Without scikit-build-core
# and without a reachable index (a GPU machine with no network) the test is skipped (exit 77), saying so.
set -eu
py="$1" repo="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$py" -m venv --system-site-packages "$work/venv"
vpy="$work/venv/bin/python"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
if ! "$vpy" -c "import scikit_build_core" 2>/dev/null &&
  ! "$vpy" -m pip install --quiet --retries 1 --timeout 15 "scikit-build-core>=0.10"; then
  echo "python_install: skipped: scikit-build-core is not installed and pip could not fetch it (no package index?)"
  exit 77 # ctest: skipped (SKIP_RETURN_CODE)
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
before="$(git -C "$repo" status --porcelain --ignored python 2>&1 || true)"
"$vpy" -m pip install --quiet --no-build-isolation --no-deps "$repo/python"
after="$(git -C "$repo" status --porcelain --ignored python 2>&1 || true)"
[ "$before" = "$after" ] || { printf 'pip install left files in the checkout:\n%s\n' "$after" >&2; exit 1; }
cp -r "$repo/python/tests" "$work/tests" # run outside the checkout: python/pyproject.toml would put python/ on sys.path
cd "$work"
env -u SQZ_LIBRARY "$vpy" -c "
import sqz
site = '$work/venv/lib/'
assert sqz.__file__.startswith(site), sqz.__file__
assert sqz.library_path.startswith(site), sqz.library_path
with sqz.Context('cpu') as c:
    f = c.domain('fractal:sierpinski-carpet:3').field('u8').fill_random(0.4, 7).life(10)
    print('installed sqz', sqz.version(), 'from', sqz.library_path, 'live', f.count())
"
env -u SQZ_LIBRARY "$vpy" -m pytest -q -p no:cacheprovider --rootdir "$work" "$work/tests"
