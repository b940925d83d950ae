#!/bin/sh
# Writes gateway.patch from an edited copy of FerretDB: make-patch.sh ORIGINAL EDITED
# ORIGINAL is the module as downloaded (`go env GOMODCACHE`/github.com/!ferret!d!b/!ferret!d!b@v1.24.2),
# EDITED a copy of it with our changes. Both are copied to a/ and b/ so the patch applies with -p1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$1" "$work/a"
cp -R "$2" "$work/b"
cd "$work"
# diff exits 1 when the trees differ; timestamps are dropped so the patch only changes with the code.
diff -ruN a b | sed -E 's/^(---|\+\+\+) ([^\t]+)\t.*$/\1 \2/' >"$here/gateway.patch" || true
test -s "$here/gateway.patch"
