// SPDX-License-Identifier: MIT
//
// compiler/sema/declare.cc - pass 3's declarations: pragmas (options,
// attributes, binding), C declarations (types, typedefs, variables) and
// translators, applied to the symbols as the unit states them (illumos
// dt_pragma.c, dt_decl.c, dt_xlator.c).
#include "sema.hpp"

#include "../btf/kernel_types.hpp"
#include "../diag.hpp"
#include "builtins.hpp"
#include "expr_check.hpp"

#include <dtrace/attributes.hpp>
#include <dtrace/options.hpp>

#include <filesystem>

namespace dt::compiler {

void apply_pragma(sema_ctx &ctx, const std::string &text, uint32_t line,
		  std::map<std::string, std::string> &options)
{
	// "pragma D option name=value", "pragma D attributes ...", ...
	std::vector<std::string> w;
	{
		size_t i = 0;
		while (i < text.size()) {
			while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
				i++;
			size_t j = i;
			while (j < text.size() && text[j] != ' ' && text[j] != '\t')
				j++;
			if (j > i)
				w.push_back(text.substr(i, j - i));
			i = j;
		}
	}
	if (w.empty() || w[0] != "pragma")
		return; // #ident, #error are not D's business
	if (w.size() < 2 || w[1] != "D")
		return; // other pragmas are ignored, as cpp would
	if (w.size() < 3)
		return; // illumos dt_pragma(): a null directive is ignored
	const std::string &d = w[2];
	if (d == "option") {
		if (w.size() < 4)
			fail(tag::D_PRAGMA_MALFORM, line,
			     "malformed #pragma option <option>=<val>");
		if (w.size() > 4)
			fail(tag::D_PRAGMA_MALFORM, line,
			     "superfluous arguments specified for #pragma option");
		std::string opt = w[3], val;
		auto eq = opt.find('=');
		if (eq != std::string::npos) {
			val = opt.substr(eq + 1);
			opt = opt.substr(0, eq);
		}
		if (const char *why = pragma_option_error(opt, val, eq != std::string::npos))
			fail(tag::D_PRAGMA_OPTSET, line,
			     "failed to set option '" + opt + "'" +
				     (eq == std::string::npos ? "" : " to '" + val + "'") + ": " +
				     why);
		if (ctx.set.options.count(opt))
			return; // the command line's -x wins
		if (option_unsets(opt, val))
			options.erase(opt);
		else
			options[opt] = val;
		return;
	}
	// depends_on module M: vmlinux is the kernel's types (BTF), another
	// M a loaded module (/sys/module/M). A D library whose dependency is
	// missing is skipped (driver.cc).
	if (d == "depends_on" && w.size() == 5 && w[3] == "module") {
		std::error_code ec;
		bool found =
			w[4] == "vmlinux"
				? ctx.syms.types.kernel().available()
				: w[4].find('/') == std::string::npos &&
					  std::filesystem::is_directory("/sys/module/" + w[4], ec);
		if (!found)
			fail(tag::D_PRAGMA_DEPEND, line, "program requires module " + w[4]);
	}
	// Only a library may depend on another (illumos dt_pragma_depends()).
	if (d == "depends_on" && w.size() >= 4 && w[3] == "library" && !ctx.library)
		fail(tag::D_PRAGMA_DEPEND, line,
		     "main program may not explicitly depend on a library");
	// attributes A name: the name must be a provider or an identifier
	// declared so far (illumos dt_pragma_attributes()).
	if (d == "attributes" && w.size() >= 5 && w[4] != "provider") {
		const symbols &sy = ctx.syms;
		const std::string &n = w[4];
		if (!sy.globals.count(n) && !sy.tls.count(n) && !sy.inlines.count(n) &&
		    !find_builtin(n))
			fail(tag::D_PRAGMA_UNUSED, line, "unused #pragma attributes");
		auto a = parse_attr(w[3]);
		if (!a)
			fail(tag::D_PRAGMA_MALFORM, line,
			     "invalid attributes specified by #pragma " + d);
		ctx.syms.attrs[n] = *a;
	}
	if (d == "attributes" || d == "binding" || d == "depends_on" || d == "error" ||
	    d == "ident" || d == "line" || d == "version")
		return;
	fail(tag::D_PRAGMA_INVAL, line, "invalid D pragma: " + d);
}

void declare(sema_ctx &ctx, decl_ast &d)
{
	symbols &syms = ctx.syms;
	expr_checker ec(ctx, nullptr, {}, false);
	auto eval = [&](expr &x) { return ec.constant(x); };
	type_ref base = syms.types.resolve(*d.spec, eval);
	const std::string &sc = d.spec->storage;
	if (d.decls.empty()) {
		if (d.spec->sou.empty() || !d.spec->has_body)
			if (d.spec->sou.empty())
				fail(tag::D_DECL_USELESS, d.line, "useless declaration");
		return;
	}
	for (auto &dc : d.decls) {
		if (dc.name.find('`') != std::string::npos)
			fail(tag::D_DECL_SCOPE, dc.line,
			     "D scoping operator may not be used in a declaration name (" +
				     dc.name + ")");
		if (dc.function)
			continue; // a prototype: D calls no user-declared function
		std::vector<uint64_t> dims;
		for (auto &de : dc.dims) {
			if (!de) {
				dims.push_back(0);
				continue;
			}
			ec.check(*de);
			if (!de->s.is_const || !de->s.type->is_int() || de->s.value < 0)
				fail(tag::D_DECL_ARRSUB, de->line,
				     "positive integral constant expression or tuple signature "
				     "expected as array declaration subscript");
			dims.push_back(static_cast<uint64_t>(de->s.value));
		}
		type_ref t = syms.types.apply(base, dc.ptrs, dims);
		if (sc == "typedef") {
			syms.types.add_typedef(dc.name, t, dc.line, d.c_header);
			continue;
		}
		if (sc == "extern")
			continue; // kernel symbols: `sym are not resolved here
		if (t->is_void())
			fail(tag::D_DECL_VOIDOBJ, dc.line, "cannot have void object: " + dc.name);
		check_complete(t, dc.name, dc.line);
		std::vector<type_ref> keys;
		for (auto &k : dc.keys)
			keys.push_back(ec.resolve_type_name(k));
		if (sc == "this") {
			if (dc.assoc)
				fail(tag::D_DECL_LOCASSC, dc.line,
				     "associative arrays may not be declared as local variables: " +
					     dc.name);
			// Clause-locals are declared per clause; remember the type.
			syms.inlines.erase("this->" + dc.name);
			syms.inlines["this->" + dc.name] = {t, nullptr, {}, {}};
			continue;
		}
		// illumos dt_node_decl(): the built-in variables are global
		// identifiers of generation 0, not to be declared again.
		if (sc != "self" && find_builtin(dc.name))
			fail(tag::D_DECL_IDRED, dc.line,
			     "built-in identifier redeclared: " + dc.name);
		auto &table = sc == "self" ? syms.tls : syms.globals;
		auto it = table.find(dc.name);
		if (it != table.end()) {
			if (it->second.type && it->second.type->resolved == t->resolved &&
			    it->second.is_array == dc.assoc)
				continue;
			fail(tag::D_DECL_IDRED, dc.line, "identifier redeclared: " + dc.name);
		}
		ec.declare(table, dc.name, sc == "self" ? DIFV_SCOPE_THREAD : DIFV_SCOPE_GLOBAL,
			   dc.assoc, t, keys, dc.line);
	}
}

void declare_translator(sema_ctx &ctx, translator_ast &x)
{
	expr_checker ec(ctx, nullptr, {}, false);
	type_ref out = ec.resolve_type_name(x.out);
	// illumos dt_node_xlator(), when the definition is complete.
	if (!out->is_sou())
		fail(tag::D_XLATE_SOU, x.end_line,
		     "translator output type must be a struct or union");
	if (!out->complete)
		fail(tag::D_XLATE_SOU, x.end_line, "incomplete struct/union/enum " + out->name);
	type_ref in = ec.resolve_type_name(x.in);
	for (const auto &o : ctx.syms.xlators)
		if (o.out->resolved == out->resolved && o.in->resolved == in->resolved)
			fail(tag::D_XLATE_REDECL, x.line,
			     "translator from " + in->name + " to " + out->name +
				     " has already been declared");
	ec.bind_xlate_arg(x.in_name, in);
	translator_info ti;
	ti.out = out;
	ti.in = in;
	ti.in_name = x.in_name;
	for (auto &[name, e] : x.members) {
		const member *m = out->find_member(name);
		if (!m)
			fail(tag::D_XLATE_MEMB, e->line,
			     "translator member " + name + " is not a member of " + out->name);
		ec.check(*e);
		if (!ec.assignable(m->type, e->s.type) &&
		    !(m->type->is_array() && e->s.type->is_string()))
			ec.incompat(*e, m->type, "=", e->s.type);
		ti.members[name] = e.get();
	}
	ctx.syms.xlators.push_back(std::move(ti));
}

} // namespace dt::compiler
