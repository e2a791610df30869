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

command -v protoc >/dev/null || { echo "protoc not found: apt-get install protobuf-compiler" >&2; exit 1; }
plugin=node_modules/.bin/protoc-gen-ts_proto
[[ -x $plugin ]] || { echo "ts-proto not installed: run npm install" >&2; exit 1; }

[[ "${1:-}" == "--check" ]] || rm -rf "$out"
mkdir -p "$out"
protoc \
  --plugin="protoc-gen-ts_proto=$plugin" \
  --ts_proto_out="$out" \
  --ts_proto_opt=outputServices=nice-grpc,outputServices=generic-definitions \
  --ts_proto_opt=forceLong=number,useOptionals=messages,esModuleInterop=true,env=node \
  --ts_proto_opt=useExactTypes=false,outputPartialMethods=false \
  -I proto \
  $(find proto -name '*.proto' | sort)

if [[ "${1:-}" == "--check" ]]; then
  if ! diff -r -q "$out" libs/proto/src/gen; then
    echo "libs/proto/src/gen is stale: run npm run proto and commit the result" >&2
    exit 1
  fi
  echo "generated proto code is current"
fi
