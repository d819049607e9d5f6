#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The SDK test: a provider is added to an installed dtrace without
# rebuilding (or even seeing) the core.
#
#   1. cmake --install <build dir> --prefix $tmp/prefix
#   2. copy examples/hello-provider to $tmp/src and configure it with only
#      -DCMAKE_PREFIX_PATH=$tmp/prefix; no include path may lead into the
#      source or build tree, and DtraceSDK must come from the prefix
#   3. dt_hello.so, alone in $tmp/plugins, is listed by the INSTALLED
#      dtrace through DTRACE_PLUGIN_PATH (exact -l and -lv output)
#   4. the installed dtrace finds its own installed plugins: -l -P dtrace,
#      and every dt_*.so in the prefix lists as it does from the build tree
#   5. `cmake --install` of the example into the prefix makes hello
#      visible without DTRACE_PLUGIN_PATH
#
# Usage: sdk_example_test.sh <build dir> <source dir> [cmake] [generator]
set -euo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 <build dir> <source dir> [cmake] [generator]" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cmake=${3:-cmake}
generator=${4:-Ninja}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-sdk-test.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
step() { echo "== $*"; }

# The user's own plugin path must not leak into the checks.
unset DTRACE_PLUGIN_PATH
prefix=$tmp/prefix
dtrace=$prefix/bin/dtrace

step "install $build into $prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
	{ cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
[ -x "$dtrace" ] || fail "no installed dtrace at $dtrace"
[ -f "$prefix/include/dtrace/plugin.h" ] || fail "plugin.h not installed"
# The installed dtrace must use the installed libdtrace, not the build's.
libdtrace=$(ldd "$dtrace" | awk '/libdtrace\.so/ { print $3 }')
case "$libdtrace" in
"$prefix"/*) ;;
*) fail "installed dtrace loads libdtrace from '$libdtrace', not from $prefix" ;;
esac

step "configure and build examples/hello-provider against the installed SDK"
cp -r "$src/examples/hello-provider" "$tmp/src"
rm -rf "$tmp/src/build"
"$cmake" -S "$tmp/src" -B "$tmp/build" -G "$generator" \
	-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
	>"$tmp/configure.log" 2>&1 ||
	{ cat "$tmp/configure.log" >&2; fail "configuring the example failed"; }
"$cmake" --build "$tmp/build" >"$tmp/build.log" 2>&1 ||
	{ cat "$tmp/build.log" >&2; fail "building the example failed"; }

sdk_dir=$(sed -n 's/^DtraceSDK_DIR:PATH=//p' "$tmp/build/CMakeCache.txt")
[ "$sdk_dir" = "$prefix/lib/cmake/DtraceSDK" ] ||
	fail "DtraceSDK found at '$sdk_dir', not in $prefix"
cc_json=$tmp/build/compile_commands.json
[ -s "$cc_json" ] || fail "no compile_commands.json"
grep -q -- "-isystem $prefix/include\|-I$prefix/include" "$cc_json" ||
	{ cat "$cc_json" >&2; fail "the example does not use $prefix/include"; }
for tree in "$src" "$build"; do
	if grep -F -- "$tree" "$cc_json" >&2; then
		fail "the example's compile commands point into $tree"
	fi
done
[ -f "$tmp/build/dt_hello.so" ] || fail "no dt_hello.so was built"
nm -D --defined-only "$tmp/build/dt_hello.so" | grep -qw dtrace_plugin_entry ||
	fail "dt_hello.so does not export dtrace_plugin_entry"

mkdir "$tmp/plugins"
cp "$tmp/build/dt_hello.so" "$tmp/plugins/"

step "installed dtrace -l -P hello with DTRACE_PLUGIN_PATH"
expected='   ID   PROVIDER            MODULE                          FUNCTION NAME
    4      hello              demo                             greet entry
    5      hello              demo                             greet return
    6      hello              demo                              tick fire'
out=$(DTRACE_PLUGIN_PATH=$tmp/plugins "$dtrace" -l -P hello 2>"$tmp/err") ||
	{ cat "$tmp/err" >&2; fail "dtrace -l -P hello failed"; }
# hello has no bpf half: unless the kmod engine can load it here, one
# stderr note says which engine could run it (docs/plugins.md).
if [ "$out" != "$expected" ] || grep -qv '^dtrace: hello probes cannot be enabled on the bpf engine here: ' "$tmp/err"; then
	diff <(echo "$expected") <(echo "$out") >&2 || true
	cat "$tmp/err" >&2
	fail "dtrace -l -P hello: unexpected listing"
fi

step "installed dtrace -lv -n hello:demo:greet:entry"
expected=$(printf '%s\n' \
	'   ID   PROVIDER            MODULE                          FUNCTION NAME' \
	'    4      hello              demo                             greet entry' \
	'' \
	'	Probe Description Attributes' \
	'		Identifier Names: Private' \
	'		Data Semantics:   Private' \
	'		Dependency Class: Unknown' \
	'' \
	'	Argument Attributes' \
	'		Identifier Names: Evolving' \
	'		Data Semantics:   Evolving' \
	'		Dependency Class: Common' \
	'' \
	'	Argument Types' \
	'		args[0]: string' \
	'		args[1]: int')
out=$(DTRACE_PLUGIN_PATH=$tmp/plugins "$dtrace" -lv -n hello:demo:greet:entry 2>"$tmp/err") ||
	{ cat "$tmp/err" >&2; fail "dtrace -lv -n hello:demo:greet:entry failed"; }
if [ "$out" != "$expected" ]; then
	diff <(echo "$expected") <(echo "$out") >&2 || true
	fail "dtrace -lv -n hello:demo:greet:entry: unexpected output"
fi
out=$(DTRACE_PLUGIN_PATH=$tmp/plugins "$dtrace" -lv -n 'hello:demo:tick:fire,hello::greet:return')
grep -qx $'\t\targs\\[0\\]: uint64_t' <<<"$out" || fail "tick:fire lacks args[0]: uint64_t"
grep -qx $'\t\targs\\[0\\]: int' <<<"$out" || fail "greet:return lacks args[0]: int"

step "without DTRACE_PLUGIN_PATH, hello is not found"
"$dtrace" -l -P hello >"$tmp/out" 2>"$tmp/err" || true
if grep -q ' hello ' "$tmp/out"; then
	fail "hello listed without DTRACE_PLUGIN_PATH before it was installed"
fi
grep -q 'failed to match hello:::: No probe matches description' "$tmp/err" ||
	{ cat "$tmp/err" >&2; fail "unexpected error for a missing provider"; }

step "installed dtrace finds its own plugins"
expected='   ID   PROVIDER            MODULE                          FUNCTION NAME
    1     dtrace                                                     BEGIN
    2     dtrace                                                     END
    3     dtrace                                                     ERROR'
out=$("$dtrace" -l -P dtrace)
[ "$out" = "$expected" ] || { echo "$out" >&2; fail "dtrace -l -P dtrace: unexpected listing"; }
plugdir=$prefix/lib/dtrace/plugins
shopt -s nullglob
installed=("$plugdir"/dt_*.so)
shopt -u nullglob
echo "installed plugins: ${#installed[@]}"
for so in "${installed[@]}"; do
	name=$(basename "$so" .so)
	name=${name#dt_}
	[ -f "$build/lib/dtrace/plugins/dt_$name.so" ] ||
		fail "$so is installed but not in the build tree"
	# The same listing (and status) from the prefix as from the build tree.
	inst_rc=0
	tree_rc=0
	"$dtrace" -l -P "$name" >"$tmp/inst.out" 2>"$tmp/inst.err" || inst_rc=$?
	"$build/bin/dtrace" -l -P "$name" >"$tmp/tree.out" 2>"$tmp/tree.err" || tree_rc=$?
	if grep -q 'failed to load provider plugin' "$tmp/inst.err"; then
		cat "$tmp/inst.err" >&2
		fail "the installed dtrace cannot load its own $so"
	fi
	# A provider may have no probes here (pid without -p): dtrace says
	# "failed to match" and exits 0, as illumos' list_stmt().
	if [ "$inst_rc" != 0 ]; then
		cat "$tmp/inst.err" >&2
		fail "-l -P $name failed from the install prefix"
	fi
	[ "$inst_rc" = "$tree_rc" ] ||
		fail "-l -P $name: exit $inst_rc installed, $tree_rc in the build tree"
	if ! cmp -s "$tmp/inst.out" "$tmp/tree.out"; then
		diff "$tmp/tree.out" "$tmp/inst.out" | head -20 >&2 || true
		fail "-l -P $name lists differently from the install prefix"
	fi
	echo "  $name: exit $inst_rc, $(($(wc -l <"$tmp/inst.out") - 1)) probes"
done

step "cmake --install the example into the prefix"
"$cmake" --install "$tmp/build" --prefix "$prefix" >"$tmp/install2.log" ||
	{ cat "$tmp/install2.log" >&2; fail "installing the example failed"; }
[ -f "$plugdir/dt_hello.so" ] || fail "the example did not install into $plugdir"
out=$("$dtrace" -l -n hello:::fire)
[ "$out" = '   ID   PROVIDER            MODULE                          FUNCTION NAME
    4      hello              demo                              tick fire' ] ||
	{ echo "$out" >&2; fail "installed hello not found by the installed dtrace"; }

echo "PASS: an out-of-tree provider builds and lists with the installed dtrace"
