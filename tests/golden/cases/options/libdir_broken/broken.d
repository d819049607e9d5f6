/* SPDX-License-Identifier: MIT */
#pragma D option no_such_option_anywhere
