   ID   PROVIDER            MODULE                          FUNCTION NAME
    4        sdt             sched                                   sched_switch

	Probe Description Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Types
		args[0]: string
		args[1]: pid_t
		args[2]: int
		args[3]: long
		args[4]: string
		args[5]: pid_t
		args[6]: int

    5        sdt             sched                                   sched_process_exec

	Probe Description Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Attributes
		Identifier Names: Private
		Data Semantics:   Private
		Dependency Class: Unknown

	Argument Types
		args[0]: string
		args[1]: pid_t
		args[2]: pid_t

