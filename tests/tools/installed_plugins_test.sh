#!/bin/sh
# `pivot` finds the first-party plugins with no configuration both from the
# build tree and from an installed tree (docs/cli.md). Installs the build into a
# temporary prefix, then compares what each pivot lists.
#   $1 = build directory, $2 = path of the pivot binary in the build tree
set -eu
build_dir=$1
build_pivot=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" >/dev/null


# The ids a pivot binary lists, one per line, with no plugin path configured.
ids() { env -u PIVOT_PLUGIN_PATH "$1" plugins --json | sed -n 's/^ *"id": "\(.*\)",*$/\1/p' | sort; }
from_build=$(ids "$build_pivot")
from_install=$(ids "$prefix/bin/pivot")

expected="pivot.solver.dantzig
pivot.solver.lemke
pivot.solver.pgs"
for id in $expected; do
  echo "$from_build" | grep -qx "$id" || { echo "build tree pivot does not list $id:"; echo "$from_build"; exit 1; }
  echo "$from_install" | grep -qx "$id" || { echo "installed pivot does not list $id:"; echo "$from_install"; exit 1; }
done
# The installed pivot lists the installed files, not the build tree's.
"$prefix/bin/pivot" plugins --json | grep -q "\"file\": \"$prefix/" || { echo "installed pivot lists files outside $prefix"; exit 1; }
# Test-only plugins are never installed.
if find "$prefix" -name 'test_*.so' -o -name 'broken_*.so' | grep -q .; then
  echo "test-only plugins were installed"; exit 1
fi
echo "first-party plugins found from the build tree and from $prefix"
