
Stability attributes for script tst.verbose_reports_the_least_stable_attributes.d:

	Minimum Probe Description Attributes
		Identifier Names: Stable
		Data Semantics:   Stable
		Dependency Class: Common

	Minimum Statement Attributes
		Identifier Names: Evolving
		Data Semantics:   Evolving
		Dependency Class: Common

1
