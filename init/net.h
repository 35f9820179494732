/* net.h - loopback, then the first network interface through busybox
 * udhcpc (the lease applied by image/udhcpc.script). */
#ifndef EBSBENCH_INIT_NET_H
#define EBSBENCH_INIT_NET_H

#include <stddef.h>

#define NET_UDHCPC "/bin/udhcpc"
#define NET_SCRIPT "/etc/udhcpc.script"
#define NET_WAIT_S 10 /* for the NIC's driver to register it */

/* 0 with the interface's name in ifname, or -1 with a one-line reason
 * (no interface, no lease). */
int net_up(char *ifname, size_t len, char *err, size_t errlen);

#endif
