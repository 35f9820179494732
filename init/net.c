/* net.c - a DHCP lease on the first non-loopback interface. */
#include "net.h"

#include <dirent.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "supervise.h"

static void loopback_up(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
}

/* The first interface other than lo, by name order (eth0, ens5). */
static int first_interface(char *ifname, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	if (!d)
		return -1;
	struct dirent *e;
	ifname[0] = '\0';
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo") || strlen(e->d_name) >= len)
			continue;
		if (!ifname[0] || strcmp(e->d_name, ifname) < 0)
			snprintf(ifname, len, "%s", e->d_name);
	}
	closedir(d);
	return ifname[0] ? 0 : -1;
}

int net_up(char *ifname, size_t len, char *err, size_t errlen)
{
	loopback_up();
	int waited = 0;
	while (first_interface(ifname, len) && waited++ < NET_WAIT_S * 10) {
		struct timespec t = { 0, 100000000L };
		nanosleep(&t, NULL);
	}
	if (!ifname[0]) {
		snprintf(err, errlen, "no network interface (ENA or virtio-net) after %d s",
			 NET_WAIT_S);
		return -1;
	}
	/* -q: quit once bound, -n: fail when no lease comes, 5 tries x 2 s. */
	char *argv[] = { NET_UDHCPC, "-i", ifname, "-q", "-n",	     "-t",
			 "5",	     "-T", "2",	   "-s", NET_SCRIPT, NULL };
	struct supervise_result r;
	supervise(argv, -1, NULL, 0, 0, &r);
	if (r.status != 0) {
		snprintf(err, errlen, "no DHCP lease on %s (udhcpc exit %d)", ifname, r.status);
		return -1;
	}
	return 0;
}
