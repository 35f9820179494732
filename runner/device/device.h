/* device.h - the devices: discovery (sysfs, mountinfo, NVMe identify, the
 * EBS log page), what a device holds (libblkid and the data scan), and the
 * mark ebsbench writes into its own data. */
#ifndef EBSBENCH_DEVICE_FACE_H
#define EBSBENCH_DEVICE_FACE_H

#include "device/discover.h"
#include "device/blkdev_probe.h"
#include "device/nvme_identify.h"
#include "device/ebs_stats.h"
#include "device/data_mark.h"
#include "device/discover_show.h"

#endif
