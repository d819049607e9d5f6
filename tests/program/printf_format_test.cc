// SPDX-License-Identifier: MIT
//
// printf_format_test.cc - the printf format parser and checker (program/printf_format.hpp)
// against illumos dt_printf.c's behaviour and wording.
#include "printf_format.hpp"

#include <gtest/gtest.h>

namespace {

using dt::fmt::format_error;
using dt::fmt::parse;

std::string parse_error(const std::string &s)
{
	try {
		(void)parse(s);
	} catch (const format_error &e) {
		return e.what();
	}
	return "(no error)";
}

TEST(Format, SplitsTextAndConversions)
{
	auto f = parse("x=%-8d %s\n");
	ASSERT_EQ(f.pieces.size(), 3u);
	EXPECT_EQ(f.pieces[0].prefix, "x=");
	EXPECT_EQ(f.pieces[0].conv->name, "d");
	EXPECT_EQ(f.pieces[0].flags, dt::fmt::k_left);
	EXPECT_EQ(f.pieces[0].width, 8);
	EXPECT_EQ(f.pieces[1].prefix, " ");
	EXPECT_EQ(f.pieces[1].conv->name, "s");
	EXPECT_EQ(f.pieces[2].prefix, "\n");
	EXPECT_EQ(f.pieces[2].conv, nullptr);
	EXPECT_EQ(f.nargs(), 2u);
}

TEST(Format, FlagsWidthPrecisionStar)
{
	auto f = parse("%#0+ '12.5llx%*.*d%?p%@u%%");
	ASSERT_EQ(f.pieces.size(), 5u);
	const auto &a = f.pieces[0];
	EXPECT_EQ(a.conv->name, "llx");
	EXPECT_EQ(a.flags, dt::fmt::k_alt | dt::fmt::k_zpad | dt::fmt::k_spos | dt::fmt::k_space |
				   dt::fmt::k_group);
	EXPECT_EQ(a.width, 12);
	EXPECT_EQ(a.prec, 5);
	EXPECT_EQ(f.pieces[1].flags, dt::fmt::k_dynwidth | dt::fmt::k_dynprec);
	EXPECT_EQ(f.pieces[2].width, 16); // %? is the pointer width on LP64
	EXPECT_EQ(f.pieces[3].flags, dt::fmt::k_agg);
	EXPECT_EQ(f.pieces[4].conv->name, "%");
	// %llx, '*', '.*', %d, %p; %@ and %% take no argument.
	EXPECT_EQ(f.nargs(), 5u);
	EXPECT_TRUE(f.has_agg_conv());
}

TEST(Format, MinusAfterZeroClearsZeroPad)
{
	EXPECT_EQ(parse("%0-5d").pieces[0].flags, dt::fmt::k_left);
	EXPECT_EQ(parse("%-05d").pieces[0].flags, dt::fmt::k_zpad); // illumos: the later flag wins
}

TEST(Format, EmptyAndTextOnly)
{
	auto e = parse("");
	ASSERT_EQ(e.pieces.size(), 1u);
	EXPECT_EQ(e.pieces[0].prefix, "");
	auto t = parse("hello\n");
	ASSERT_EQ(t.pieces.size(), 1u);
	EXPECT_EQ(t.pieces[0].prefix, "hello\n");
	EXPECT_EQ(t.nargs(), 0u);
}

TEST(Format, ErrorsHaveIllumosWording)
{
	EXPECT_EQ(parse_error("%d %zd"), "format conversion #2 is undefined: %z");
	EXPECT_EQ(parse_error("abc %"),
		  "format conversion #1 name expected before end of format string");
	EXPECT_EQ(parse_error("%1$d"),
		  "format conversion #1 uses unsupported positional format (%n$)");
	EXPECT_EQ(parse_error("%5%"),
		  "format conversion #1 cannot be combined with other format flags: %%");
	EXPECT_EQ(parse_error("%1.2.3d"), "format conversion #1 has more than one '.' specified");
	EXPECT_EQ(parse_error("%**d"), "format conversion #1 has more than one '*' specified "
				       "for the output precision");
	EXPECT_EQ(parse_error("%hhd"), "format conversion #1 is undefined: %hhd");
	EXPECT_EQ(parse_error("%q"), "format conversion #1 is undefined: %q");
}

TEST(Format, Lookup)
{
	EXPECT_NE(dt::fmt::lookup("llX"), nullptr);
	EXPECT_NE(dt::fmt::lookup("ws"), nullptr);
	EXPECT_EQ(dt::fmt::lookup("Y")->print, dt::fmt::arg_print::time);
	EXPECT_EQ(dt::fmt::lookup("z"), nullptr);
	EXPECT_EQ(dt::fmt::conversions().size(), 51u);
}

dt::fmt::arg_type integer(std::string name, uint32_t size, bool sign)
{
	dt::fmt::arg_type a;
	a.name = a.resolved = std::move(name);
	a.size = size;
	a.is_integer = true;
	a.is_signed = sign;
	return a;
}

dt::fmt::arg_type string_type()
{
	dt::fmt::arg_type a;
	a.name = "string";
	a.is_string = true;
	return a;
}

std::string check_error(const std::string &f, std::vector<dt::fmt::arg_type> args,
			bool printa = false)
{
	try {
		(void)dt::fmt::check_args(parse(f), printa ? "printa" : "printf", args,
					  printa ? 1 : 1, printa);
	} catch (const format_error &e) {
		return e.tag() + ": " + e.what();
	}
	return "(no error)";
}

TEST(FormatCheck, AcceptsMatchingArguments)
{
	auto v = dt::fmt::check_args(
		parse("%d %s %u"), "printf",
		std::vector{integer("int", 4, true), string_type(), integer("uint64_t", 8, false)},
		1, false);
	ASSERT_EQ(v.size(), 3u);
	EXPECT_TRUE(v[0].is_signed);
	EXPECT_FALSE(v[2].is_signed);
}

TEST(FormatCheck, IllumosMessages)
{
	// illumos test suite: err.D_PRINTF_ARG_TYPE.*, err.D_PRINTF_ARG_PROTO.*
	EXPECT_EQ(check_error("%s", {integer("int", 4, true)}),
		  "D_PRINTF_ARG_TYPE: printf( ) argument #2 is incompatible with conversion #1 "
		  "prototype:\n\tconversion: %s\n\t prototype: char [] or string (or use "
		  "stringof)\n\t  argument: int");
	EXPECT_EQ(check_error("%d %d", {integer("int", 4, true)}),
		  "D_PRINTF_ARG_PROTO: printf( ) prototype mismatch: conversion #2 (%d) is "
		  "missing a corresponding value argument");
	EXPECT_EQ(check_error("%d", {integer("int", 4, true), integer("int", 4, true)}),
		  "D_PRINTF_ARG_EXTRA: printf( ) prototype mismatch: only 1 arguments required "
		  "by this format string");
	EXPECT_EQ(check_error("%*d", {string_type(), integer("int", 4, true)}),
		  "D_PRINTF_DYN_TYPE: printf( ) argument #2 is incompatible with conversion #1 "
		  "prototype:\n\tconversion: % * d\n\t prototype: int\n\t  argument: string");
	EXPECT_EQ(check_error("%@d", {}),
		  "D_PRINTF_AGG_CONV: %@ conversion requires an aggregation and is not for use "
		  "with printf( )");
	EXPECT_EQ(check_error("", {}), "D_PRINTF_FMT_EMPTY: printf( ) format string is empty");
	EXPECT_EQ(check_error("%c", {integer("long", 8, true)}),
		  "D_PRINTF_ARG_TYPE: printf( ) argument #2 is incompatible with conversion #1 "
		  "prototype:\n\tconversion: %c\n\t prototype: char, short, or int\n\t  "
		  "argument: long");
}

TEST(FormatCheck, ExactTypesCompareEncodings)
{
	EXPECT_EQ(check_error("%ld", {integer("int64_t", 8, true)}), "(no error)");
	EXPECT_NE(check_error("%ld", {integer("int", 4, true)}), "(no error)");
	EXPECT_EQ(check_error("%hu", {integer("uint16_t", 2, false)}), "(no error)");
	auto ll = integer("uint64_t", 8, false);
	ll.resolved = "unsigned long";
	ll.typedefs = {"uint64_t"};
	EXPECT_EQ(check_error("%llx", {ll}), "(no error)");
	EXPECT_NE(check_error("%lx", {integer("int", 4, true)}), "(no error)");
	EXPECT_EQ(check_error("%@d %d", {integer("int", 4, true)}, true), "(no error)");
}

} // namespace
