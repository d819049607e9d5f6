// SPDX-License-Identifier: MIT
// Stability attribute names and ordering (core/probe/attributes.cc).
#include <dtrace/attributes.hpp>

#include <gtest/gtest.h>

TEST(Attributes, StabilityNames)
{
	EXPECT_EQ(dt::stability_name(DT_STABILITY_INTERNAL), "Internal");
	EXPECT_EQ(dt::stability_name(DT_STABILITY_PRIVATE), "Private");
	EXPECT_EQ(dt::stability_name(DT_STABILITY_EVOLVING), "Evolving");
	EXPECT_EQ(dt::stability_name(DT_STABILITY_STANDARD), "Standard");
	EXPECT_EQ(dt::stability_name(42), "Unknown");
}

TEST(Attributes, ClassNames)
{
	EXPECT_EQ(dt::class_name(DT_CLASS_UNKNOWN), "Unknown");
	EXPECT_EQ(dt::class_name(DT_CLASS_ISA), "ISA");
	EXPECT_EQ(dt::class_name(DT_CLASS_COMMON), "Common");
	EXPECT_EQ(dt::class_name(99), "Unknown");
}

TEST(Attributes, MinIsFieldWise)
{
	dt_attribute_t a{DT_STABILITY_STABLE, DT_STABILITY_PRIVATE, DT_CLASS_COMMON};
	dt_attribute_t b{DT_STABILITY_EVOLVING, DT_STABILITY_STABLE, DT_CLASS_ISA};
	dt_attribute_t m = dt::attr_min(a, b);
	EXPECT_EQ(m.name, DT_STABILITY_EVOLVING);
	EXPECT_EQ(m.data, DT_STABILITY_PRIVATE);
	EXPECT_EQ(m.klass, DT_CLASS_ISA);
}

// dtrace_str2attr(): words in any case; fields left out are the most stable.
TEST(Attributes, ParseFillsMissingFieldsWithTheMost)
{
	auto a = dt::parse_attr("evolving/Private/isa");
	ASSERT_TRUE(a.has_value());
	EXPECT_EQ(dt::attr_string(*a), "Evolving/Private/ISA");
	auto b = dt::parse_attr("Stable");
	ASSERT_TRUE(b.has_value());
	EXPECT_EQ(dt::attr_string(*b), "Stable/Standard/Common");
	EXPECT_FALSE(dt::parse_attr("Stable/Stable/Stable").has_value());
	EXPECT_FALSE(dt::parse_attr("Stable/Stable/CPU/x").has_value());
	EXPECT_FALSE(dt::parse_attr("Solid").has_value());
}

// dt_attr_cmp() < 0: any one field below the minimum is enough.
TEST(Attributes, BelowWhenAnyFieldIsBelow)
{
	dt_attribute_t min{DT_STABILITY_EVOLVING, DT_STABILITY_EVOLVING, DT_CLASS_COMMON};
	EXPECT_FALSE(dt::attr_below(dt::k_attr_stable, min));
	EXPECT_FALSE(dt::attr_below(min, min));
	EXPECT_TRUE(dt::attr_below(dt::k_attr_unstable, min));
	dt_attribute_t isa{DT_STABILITY_STABLE, DT_STABILITY_STABLE, DT_CLASS_ISA};
	EXPECT_TRUE(dt::attr_below(isa, min));
}
