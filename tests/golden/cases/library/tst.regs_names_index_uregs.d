/* SPDX-License-Identifier: MIT */

/*
 * regs.d on x86_64: uregs[] indexes are the slots of the saved register
 * frame (struct pt_regs order), then the segment registers and trap number;
 * the i386 and portable names alias them.
 */
#pragma D option quiet

BEGIN
{
	printf("R_RIP %d R_RSP %d R_RAX %d R_RDI %d R_ERR %d R_TRAPNO %d\n", R_RIP, R_RSP,
	    R_RAX, R_RDI, R_ERR, R_TRAPNO);
	printf("R_PC %d R_SP %d R_R0 %d R_R1 %d\n", R_PC, R_SP, R_R0, R_R1);
	printf("R_EIP %d R_ESP %d R_EFL %d R_CS %d R_SS %d R_GS %d\n", R_EIP, R_ESP, R_EFL,
	    R_CS, R_SS, R_GS);
	exit(0);
}
