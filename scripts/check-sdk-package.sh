#!/usr/bin/env bash
# The SDK as npm would publish it: `npm pack` of sdk/ (its prepack script empties dist/ and builds
# it, so nothing stale is packed), then the tarball checked by publint and by Are the Types Wrong.
# `npm test` runs it after the lint, its output on stderr.
#
# publint --strict: its warnings fail too, not only its errors.
# attw --profile strict (its default, written out): every resolution TypeScript offers, node10
# included. The SDK is CommonJS only ("type": "commonjs"), which ESM importers load as well, so
# `esm-only` does not fit it; and `node16` would skip node10, TypeScript's resolution for
# `"module": "commonjs"` (this repository's own tsconfig), which a merchant's CommonJS project is
# likely to use: `typesVersions` in sdk/package.json gives it `@gateway/merchant-sdk/testing`.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

npm pack --workspace sdk --pack-destination "$tmp" --loglevel warn >&2
tarball=$(ls "$tmp"/*.tgz)

npx --no-install publint run --strict "$tarball"
npx --no-install attw --profile strict --no-color --format table "$tarball"
