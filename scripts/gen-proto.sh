#!/usr/bin/env bash
# Generates typed TypeScript (ts-proto, nice-grpc service definitions) from
# proto/ into libs/proto/src/gen. The output is committed; `--check`
# regenerates into a temporary folder and fails when the committed code has
# drifted from the .proto files.
set -euo pipefail
cd "$(dirname "$0")/.."

out=libs/proto/src/gen
if [[ "${1:-}" == "--check" ]]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

# buf (npm's @bufbuild/buf ships its binary) compiles the .proto files and
# runs the ts-proto plugin the way protoc would, so no system protoc is
# needed; its output differs from protoc's only in the version header.
buf=node_modules/.bin/buf
plugin=node_modules/.bin/protoc-gen-ts_proto
[[ -x $buf && -x $plugin ]] || { echo "buf or ts-proto not installed: run npm install" >&2; exit 1; }

[[ "${1:-}" == "--check" ]] || rm -rf "$out"
mkdir -p "$out"
opts='"outputServices=nice-grpc,outputServices=generic-definitions",
  "forceLong=number,useOptionals=messages,esModuleInterop=true,env=node",
  "useExactTypes=false,outputPartialMethods=false"'
# strategy all: one plugin call for every file, as protoc made.
"$buf" generate proto --template "{\"version\": \"v2\", \"plugins\": [{
  \"local\": \"$plugin\", \"out\": \"$out\", \"strategy\": \"all\", \"opt\": [$opts]}]}"

if [[ "${1:-}" == "--check" ]]; then
  if ! diff -r -q "$out" libs/proto/src/gen; then
    echo "libs/proto/src/gen is stale: run npm run proto and commit the result" >&2
    exit 1
  fi
  echo "generated proto code is current"
fi
