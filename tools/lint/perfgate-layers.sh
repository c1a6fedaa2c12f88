#!/usr/bin/env bash
# perfgate's layers stay visible: every source of tools/perfgate lies in a folder named in tools/perfgate/layers.txt,
# and every quoted include names a header as LAYER/FILE of its own layer or one listed before it. An unqualified
# include would be found beside the including file and hide which layer it reaches into. The unit tests mirror the
# layers: tools/perfgate/tests/LAYER/*.cpp follow the same rule (the scripts beside them drive the command line).
# The command-line parser (CLI11, about 5 s of compiling per file that includes it) is included by cli/command_line.cpp
# and cli/main.cpp alone: a command's file states its options through cli/command_line.h.
# Prints each finding as FILE:LINE: reason and exits 1; 0 when there is none.
# Usage: tools/lint/perfgate-layers.sh [ROOT]   (default: the repository root)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tool="$root/tools/perfgate"
[[ -f $tool/layers.txt ]] || { echo "perfgate-layers: no tools/perfgate/layers.txt under $root" >&2; exit 2; }
mapfile -t layers < <(grep -E '^[a-z]+$' "$tool/layers.txt")
(( ${#layers[@]} > 0 )) || { echo "perfgate-layers: tools/perfgate/layers.txt names no layer" >&2; exit 2; }
declare -A rank=()
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done
findings=()
files=0
while IFS= read -r -d '' file; do
  relative=${file#"$root"/}
  inner=${file#"$tool"/}
  inner=${inner#tests/}  # a test lies in the layer it tests
  layer=${inner%%/*}
  if [[ $inner != */* || -z ${rank[$layer]+set} || $inner == "$layer"/*/* ]]; then
    findings+=("$relative:1: lies in no layer folder (tools/perfgate/LAYER/, LAYER one of: ${layers[*]})")
    continue
  fi
  files=$((files + 1))
  line=0
  while IFS= read -r text; do
    line=$((line + 1))
    if [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\<CLI/ && $inner != cli/command_line.cpp && $inner != cli/main.cpp ]]; then
      findings+=("$relative:$line: includes the parser (CLI11); state options through cli/command_line.h")
    fi
    [[ $text =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
    included=${BASH_REMATCH[1]}
    target=${included%%/*}
    if [[ $included != */* || -z ${rank[$target]+set} ]]; then
      findings+=("$relative:$line: includes \"$included\", not LAYER/FILE")
    elif [[ ! -f $tool/$included ]]; then
      findings+=("$relative:$line: includes \"$included\", which does not exist")
    elif (( rank[$target] > rank[$layer] )); then
      findings+=("$relative:$line: $layer includes \"$included\" of the higher layer $target")
    fi
  done <"$file"
done < <({ find "$tool" -path "$tool/tests" -prune -o -path "$tool/scripts" -prune -o -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.c' \) -print0
          [[ ! -d $tool/tests ]] || find "$tool/tests" -mindepth 2 -maxdepth 2 -type f -name '*_test.cpp' -print0; } | sort -z)
if (( ${#findings[@]} > 0 )); then
  printf '%s\n' "${findings[@]}" >&2
  echo "perfgate-layers: $files file(s), ${#findings[@]} finding(s)" >&2
  exit 1
fi
echo "perfgate-layers: $files file(s) in ${#layers[@]} layers, each including only its own layer and those below"
