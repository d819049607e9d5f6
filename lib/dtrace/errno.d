/*
 * SPDX-License-Identifier: MIT
 *
 * errno.d - the error numbers of the Dynamic Tracing Guide's errno.d, with
 * Linux's values (include/uapi/asm-generic/errno-base.h and errno.h): the
 * names scripts compare the errno variable with, as in
 *	syscall::open*:return /errno == ENOENT/ { ... }
 * Aliases (EWOULDBLOCK, EDEADLOCK) have their target's value. Illumos names
 * that Linux lacks are not defined: a script that uses one is told so at
 * compile time rather than tested against a wrong number.
 */

inline int EPERM = 1;	/* Operation not permitted */
inline int ENOENT = 2;	/* No such file or directory */
inline int ESRCH = 3;	/* No such process */
inline int EINTR = 4;	/* Interrupted system call */
inline int EIO = 5;	/* I/O error */
inline int ENXIO = 6;	/* No such device or address */
inline int E2BIG = 7;	/* Argument list too long */
inline int ENOEXEC = 8;	/* Exec format error */
inline int EBADF = 9;	/* Bad file number */
inline int ECHILD = 10;	/* No child processes */
inline int EAGAIN = 11;	/* Try again */
inline int ENOMEM = 12;	/* Out of memory */
inline int EACCES = 13;	/* Permission denied */
inline int EFAULT = 14;	/* Bad address */
inline int ENOTBLK = 15;	/* Block device required */
inline int EBUSY = 16;	/* Device or resource busy */
inline int EEXIST = 17;	/* File exists */
inline int EXDEV = 18;	/* Cross-device link */
inline int ENODEV = 19;	/* No such device */
inline int ENOTDIR = 20;	/* Not a directory */
inline int EISDIR = 21;	/* Is a directory */
inline int EINVAL = 22;	/* Invalid argument */
inline int ENFILE = 23;	/* File table overflow */
inline int EMFILE = 24;	/* Too many open files */
inline int ENOTTY = 25;	/* Not a typewriter */
inline int ETXTBSY = 26;	/* Text file busy */
inline int EFBIG = 27;	/* File too large */
inline int ENOSPC = 28;	/* No space left on device */
inline int ESPIPE = 29;	/* Illegal seek */
inline int EROFS = 30;	/* Read-only file system */
inline int EMLINK = 31;	/* Too many links */
inline int EPIPE = 32;	/* Broken pipe */
inline int EDOM = 33;	/* Math argument out of domain of func */
inline int ERANGE = 34;	/* Math result not representable */
inline int EDEADLK = 35;	/* Resource deadlock would occur */
inline int ENAMETOOLONG = 36;	/* File name too long */
inline int ENOLCK = 37;	/* No record locks available */
inline int ENOSYS = 38;	/* Invalid system call number */
inline int ENOTEMPTY = 39;	/* Directory not empty */
inline int ELOOP = 40;	/* Too many symbolic links encountered */
inline int EWOULDBLOCK = EAGAIN;	/* Operation would block */
inline int ENOMSG = 42;	/* No message of desired type */
inline int EIDRM = 43;	/* Identifier removed */
inline int ECHRNG = 44;	/* Channel number out of range */
inline int EL2NSYNC = 45;	/* Level 2 not synchronized */
inline int EL3HLT = 46;	/* Level 3 halted */
inline int EL3RST = 47;	/* Level 3 reset */
inline int ELNRNG = 48;	/* Link number out of range */
inline int EUNATCH = 49;	/* Protocol driver not attached */
inline int ENOCSI = 50;	/* No CSI structure available */
inline int EL2HLT = 51;	/* Level 2 halted */
inline int EBADE = 52;	/* Invalid exchange */
inline int EBADR = 53;	/* Invalid request descriptor */
inline int EXFULL = 54;	/* Exchange full */
inline int ENOANO = 55;	/* No anode */
inline int EBADRQC = 56;	/* Invalid request code */
inline int EBADSLT = 57;	/* Invalid slot */
inline int EDEADLOCK = EDEADLK;	/* same as EDEADLK */
inline int EBFONT = 59;	/* Bad font file format */
inline int ENOSTR = 60;	/* Device not a stream */
inline int ENODATA = 61;	/* No data available */
inline int ETIME = 62;	/* Timer expired */
inline int ENOSR = 63;	/* Out of streams resources */
inline int ENONET = 64;	/* Machine is not on the network */
inline int ENOPKG = 65;	/* Package not installed */
inline int EREMOTE = 66;	/* Object is remote */
inline int ENOLINK = 67;	/* Link has been severed */
inline int EADV = 68;	/* Advertise error */
inline int ESRMNT = 69;	/* Srmount error */
inline int ECOMM = 70;	/* Communication error on send */
inline int EPROTO = 71;	/* Protocol error */
inline int EMULTIHOP = 72;	/* Multihop attempted */
inline int EDOTDOT = 73;	/* RFS specific error */
inline int EBADMSG = 74;	/* Not a data message */
inline int EOVERFLOW = 75;	/* Value too large for defined data type */
inline int ENOTUNIQ = 76;	/* Name not unique on network */
inline int EBADFD = 77;	/* File descriptor in bad state */
inline int EREMCHG = 78;	/* Remote address changed */
inline int ELIBACC = 79;	/* Can not access a needed shared library */
inline int ELIBBAD = 80;	/* Accessing a corrupted shared library */
inline int ELIBSCN = 81;	/* .lib section in a.out corrupted */
inline int ELIBMAX = 82;	/* Attempting to link in too many shared libraries */
inline int ELIBEXEC = 83;	/* Cannot exec a shared library directly */
inline int EILSEQ = 84;	/* Illegal byte sequence */
inline int ERESTART = 85;	/* Interrupted system call should be restarted */
inline int ESTRPIPE = 86;	/* Streams pipe error */
inline int EUSERS = 87;	/* Too many users */
inline int ENOTSOCK = 88;	/* Socket operation on non-socket */
inline int EDESTADDRREQ = 89;	/* Destination address required */
inline int EMSGSIZE = 90;	/* Message too long */
inline int EPROTOTYPE = 91;	/* Protocol wrong type for socket */
inline int ENOPROTOOPT = 92;	/* Protocol not available */
inline int EPROTONOSUPPORT = 93;	/* Protocol not supported */
inline int ESOCKTNOSUPPORT = 94;	/* Socket type not supported */
inline int EOPNOTSUPP = 95;	/* Operation not supported on transport endpoint */
inline int EPFNOSUPPORT = 96;	/* Protocol family not supported */
inline int EAFNOSUPPORT = 97;	/* Address family not supported by protocol */
inline int EADDRINUSE = 98;	/* Address already in use */
inline int EADDRNOTAVAIL = 99;	/* Cannot assign requested address */
inline int ENETDOWN = 100;	/* Network is down */
inline int ENETUNREACH = 101;	/* Network is unreachable */
inline int ENETRESET = 102;	/* Network dropped connection because of reset */
inline int ECONNABORTED = 103;	/* Software caused connection abort */
inline int ECONNRESET = 104;	/* Connection reset by peer */
inline int ENOBUFS = 105;	/* No buffer space available */
inline int EISCONN = 106;	/* Transport endpoint is already connected */
inline int ENOTCONN = 107;	/* Transport endpoint is not connected */
inline int ESHUTDOWN = 108;	/* Cannot send after transport endpoint shutdown */
inline int ETOOMANYREFS = 109;	/* Too many references: cannot splice */
inline int ETIMEDOUT = 110;	/* Connection timed out */
inline int ECONNREFUSED = 111;	/* Connection refused */
inline int EHOSTDOWN = 112;	/* Host is down */
inline int EHOSTUNREACH = 113;	/* No route to host */
inline int EALREADY = 114;	/* Operation already in progress */
inline int EINPROGRESS = 115;	/* Operation now in progress */
inline int ESTALE = 116;	/* Stale file handle */
inline int EUCLEAN = 117;	/* Structure needs cleaning */
inline int ENOTNAM = 118;	/* Not a XENIX named type file */
inline int ENAVAIL = 119;	/* No XENIX semaphores available */
inline int EISNAM = 120;	/* Is a named type file */
inline int EREMOTEIO = 121;	/* Remote I/O error */
inline int EDQUOT = 122;	/* Quota exceeded */
inline int ENOMEDIUM = 123;	/* No medium found */
inline int EMEDIUMTYPE = 124;	/* Wrong medium type */
inline int ECANCELED = 125;	/* Operation Canceled */
inline int ENOKEY = 126;	/* Required key not available */
inline int EKEYEXPIRED = 127;	/* Key has expired */
inline int EKEYREVOKED = 128;	/* Key has been revoked */
inline int EKEYREJECTED = 129;	/* Key was rejected by service */
inline int EOWNERDEAD = 130;	/* Owner died */
inline int ENOTRECOVERABLE = 131;	/* State not recoverable */
inline int ERFKILL = 132;	/* Operation not possible due to RF-kill */
inline int EHWPOISON = 133;	/* Memory page has hardware error */
inline int ENOTSUP = EOPNOTSUPP;	/* C library name of EOPNOTSUPP */

/*
 * Kernel-internal codes (include/linux/errno.h) that a system call's return
 * probe can see before the kernel restarts the call or maps them.
 */
inline int ERESTARTSYS = 512;
inline int ERESTARTNOINTR = 513;
inline int ERESTARTNOHAND = 514;
inline int ENOIOCTLCMD = 515;
inline int ERESTART_RESTARTBLOCK = 516;
