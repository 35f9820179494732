/* cmd_presign.h - `ebsbench presign`: sign the upload URLs (or a POST
 * policy) for one run, on the operator's machine, where the credentials are. */
#ifndef EBSBENCH_CMD_PRESIGN_H
#define EBSBENCH_CMD_PRESIGN_H

int cmd_presign(int argc, char **argv);

#endif
