/* SPDX-License-Identifier: MIT */
BEGIN
{
}

nosuchprovider:::nosuchprobe
{
}
