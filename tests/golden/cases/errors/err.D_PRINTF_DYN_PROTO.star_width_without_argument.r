dtrace: failed to compile script err.D_PRINTF_DYN_PROTO.star_width_without_argument.d: line 4: printf( ) prototype mismatch: conversion #1 (%d) is missing a corresponding "*" argument
