#!/usr/bin/env bash
# Builds the DocC documentation of every library product that has a catalogue (Sources/<Module>/
# <Module>.docc or Mocks/<Module>/<Module>.docc), with warnings treated as errors, using the
# toolchain's own tools only (no docc plugin, so an app depending on Stratus resolves nothing more):
#
#   1. `swift package dump-symbol-graph` builds the package in the ordinary debug configuration
#      (the same .build/debug every `swift build` uses, so an up-to-date build is reused, not
#      repeated) and extracts each module's public symbol graph from its .swiftmodule.
#   2. `docc convert` per module, in dependency order: the module's catalogue plus its own symbol
#      graphs (<Module>.symbols.json and its extensions of other modules, <Module>@*.symbols.json),
#      `--warnings-as-errors`; each archive is built with external link support, and the archives
#      of the Stratus modules it depends on are passed with `--dependency`, so an absolute link
#      such as ``/Stratus/Service`` in another module's documentation is checked too. (A relative
#      ``Stratus/Service`` is looked up in the module itself only, where it finds at most the
#      module's own extension of the type: write it so only for what that extension declares.)
#
# Archives: .build/docs/<Module>.doccarchive (git-ignored with .build/).
#
# Usage:
#   Scripts/build-docs.sh                      every module
#   Scripts/build-docs.sh Stratus StratusSync  the named modules (and the modules they link to)
#   Scripts/build-docs.sh --preview <Module> [port]
#       builds the modules it links to, then serves its documentation with `docc preview` at
#       http://localhost:<port>/documentation/<module, lower case> (port 8080 by default); edits
#       of the catalogue show at once, edits of `///` comments after running the command again
set -euo pipefail
cd "$(dirname "$0")/.."

docc="${DOCC:-$(dirname "$(readlink -f "$(command -v swift)")")/docc}"
[ -x "$docc" ] || docc="$(command -v docc)"
out=.build/docs

# Every library product with a catalogue, each after the Stratus modules it depends on; the check
# below fails when a library product with a catalogue is missing here.
modules=(
    StratusFileSystem Stratus StratusDigest StratusHTTP StratusLocal StratusContract StratusAdapterKit
    StratusOAuth StratusDropbox StratusDrive StratusOneDrive StratusS3 StratusWebDAV StratusSync StratusKeyValue
    StratusCrypt MockSupport
)
# The documented modules each module's documentation may link to: its direct dependencies here.
declare -A links=(
    [StratusFileSystem]=""
    [Stratus]="StratusFileSystem"
    [StratusDigest]="Stratus StratusFileSystem"
    [StratusHTTP]="Stratus StratusDigest StratusFileSystem"
    [StratusLocal]="Stratus StratusDigest StratusFileSystem"
    [StratusContract]="Stratus StratusDigest"
    [StratusAdapterKit]="Stratus StratusHTTP StratusDigest StratusFileSystem"
    [StratusOAuth]="Stratus StratusHTTP StratusDigest StratusAdapterKit StratusFileSystem"
    [StratusDropbox]="Stratus StratusHTTP StratusOAuth StratusDigest StratusAdapterKit"
    [StratusDrive]="Stratus StratusHTTP StratusOAuth StratusDigest StratusAdapterKit"
    [StratusOneDrive]="Stratus StratusHTTP StratusOAuth StratusDigest StratusAdapterKit"
    [StratusS3]="Stratus StratusHTTP StratusDigest StratusAdapterKit"
    [StratusWebDAV]="Stratus StratusHTTP StratusDigest StratusAdapterKit StratusFileSystem"
    [StratusSync]="Stratus StratusDigest StratusFileSystem"
    [StratusKeyValue]="Stratus StratusSync"
    [StratusCrypt]="Stratus StratusAdapterKit StratusDigest StratusFileSystem"
    [MockSupport]="StratusDigest StratusHTTP StratusFileSystem"
)

# Their closure: a module's documentation may link to any module it depends on, directly or not.
for module in "${modules[@]}"; do
    closure="${links[$module]}"
    for dependency in ${links[$module]}; do closure+=" ${links[$dependency]}"; done
    links[$module]="$(tr ' ' '\n' <<<"$closure" | sed '/^$/d' | sort -u | tr '\n' ' ')"
done

catalogue() {
    local module="$1"
    for root in Sources Mocks; do
        if [ -d "$root/$module/$module.docc" ]; then
            echo "$root/$module/$module.docc"
            return
        fi
    done
    return 1
}

# Every library product in Package.swift with a catalogue must be in the list above.
for product in $(sed -n 's/^ *\.library(name: "\([A-Za-z0-9_]*\)".*/\1/p' Package.swift); do
    if catalogue "$product" >/dev/null && [ -z "${links[$product]+set}" ]; then
        echo "error: library product $product has a catalogue but is not in Scripts/build-docs.sh" >&2
        exit 1
    fi
done

preview=""
port=8080
if [ "${1:-}" = "--preview" ]; then
    preview="${2:?usage: Scripts/build-docs.sh --preview <Module> [port]}"
    port="${3:-8080}"
    set -- "$preview"
fi

# The modules to build: the named ones and, before them, the ones they link to.
selected=("${modules[@]}")
if [ "$#" -gt 0 ]; then
    declare -A wanted=()
    for module in "$@"; do
        [ -n "${links[$module]+set}" ] || {
            echo "error: $module is not a documented module (${modules[*]})" >&2
            exit 1
        }
        wanted[$module]=1
        for dependency in ${links[$module]}; do wanted[$dependency]=1; done
    done
    selected=()
    for module in "${modules[@]}"; do
        [ -z "${wanted[$module]:-}" ] || selected+=("$module")
    done
fi

start=$SECONDS
mkdir -p "$out"
# On a fresh checkout whose tests were never built, the graphs of SwiftPM's own test-runner
# modules (StratusPackageTests, StratusPackageDiscoveredTests) cannot be made and the command
# fails for them; any other error stops the script.
# The Development trait: the mock kit (MockSupport) is documented too, and builds only with it.
if ! swift package --traits Development dump-symbol-graph --minimum-access-level public --skip-synthesized-members \
    --emit-extension-block-symbols >"$out/dump-symbol-graph.log" 2>&1; then
    if grep '^error:' "$out/dump-symbol-graph.log" | grep -vq "'StratusPackage\(Discovered\)\?Tests'"; then
        cat "$out/dump-symbol-graph.log" >&2
        exit 1
    fi
fi
graphs="$(swift build --traits Development --show-bin-path)/../symbolgraph"
echo "build and symbol graphs: $((SECONDS - start)) s"

# The inputs docc needs for one module: its catalogue, a folder of its own symbol graphs, and
# the archives of the modules it links to.
docc_arguments() {
    local module="$1"
    local own="$out/symbol-graphs/$module"
    rm -rf "$own"
    mkdir -p "$own"
    cp "$graphs/$module.symbols.json" "$own/"
    for extension in "$graphs/$module@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$own/"
    done
    arguments=(
        "$(catalogue "$module")"
        --additional-symbol-graph-dir "$own"
        --fallback-display-name "$module"
        --fallback-bundle-identifier "org.stratus.$module"
        --fallback-default-module-kind "Framework"
        --enable-experimental-external-link-support
    )
    for dependency in ${links[$module]}; do
        arguments+=(--dependency "$out/$dependency.doccarchive")
    done
}

failed=()
for module in "${selected[@]}"; do
    [ "$module" != "$preview" ] || continue
    rm -rf "${out:?}/$module.doccarchive"
    missing=""
    for dependency in ${links[$module]}; do
        [ -d "$out/$dependency.doccarchive" ] || missing+=" $dependency"
    done
    if [ -n "$missing" ]; then
        failed+=("$module")
        echo "SKIPPED: $module (it links to$missing, which failed)" >&2
        continue
    fi
    docc_arguments "$module"
    if "$docc" convert "${arguments[@]}" --warnings-as-errors --output-path "$out/$module.doccarchive" \
        >"$out/$module.log" 2>&1; then
        echo "ok: $module ($out/$module.doccarchive)"
    else
        failed+=("$module")
        echo "FAIL: $module" >&2
        cat "$out/$module.log" >&2
    fi
done
echo "docs: $((SECONDS - start)) s in all"

if [ "${#failed[@]}" -gt 0 ]; then
    echo "error: documentation with warnings or errors: ${failed[*]}" >&2
    exit 1
fi

if [ -n "$preview" ]; then
    docc_arguments "$preview"
    exec "$docc" preview "${arguments[@]}" --port "$port" --output-path "$out/$preview.preview"
fi
