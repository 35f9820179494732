#!/usr/bin/env python3
"""pe-stamp.py FILE EPOCH - set a PE image's COFF timestamp to EPOCH and
recompute its optional-header checksum, in place.

objcopy stamps the time of the build into a PE image it writes (binutils
2.40 has no option against it); a reproducible UKI needs a fixed one.
The checksum is PE's usual one (16-bit one's-complement sum of the file
with the checksum field taken as zero, plus the file length), so the
image stays as valid as objcopy left it.
"""
import struct
import sys


def main():
    path, epoch = sys.argv[1], int(sys.argv[2])
    data = bytearray(open(path, "rb").read())
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe : pe + 4] != b"PE\0\0":
        sys.exit(f"pe-stamp.py: {path}: not a PE image")
    struct.pack_into("<I", data, pe + 8, epoch & 0xFFFFFFFF)
    checksum_at = pe + 24 + 64
    struct.pack_into("<I", data, checksum_at, 0)
    padded = data + b"\0" * (len(data) % 2)
    total = 0
    for (word,) in struct.iter_unpack("<H", padded):
        total += word
        total = (total & 0xFFFF) + (total >> 16)
    struct.pack_into("<I", data, checksum_at, (total & 0xFFFF) + len(data))
    open(path, "wb").write(data)


if __name__ == "__main__":
    main()
