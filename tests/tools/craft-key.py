#!/usr/bin/python3
"""Crafts hostile OpenPGP keys from a good binary keyring, for the tests.

usage: craft-key.py version N IN OUT   the first key packet's version set to N
       craft-key.py empty-mpi IN OUT   an RSA v4 key whose modulus is an MPI
                                       of zero length, then IN's other packets
"""
import struct
import sys


def packets(data):
    """(header, body) of each packet; old and new formats, fixed lengths."""
    pos = 0
    while pos < len(data):
        ctb = data[pos]
        if ctb & 0x40:
            o1 = data[pos + 1]
            if o1 < 192:
                hlen, blen = 2, o1
            elif o1 < 224:
                hlen, blen = 3, ((o1 - 192) << 8) + data[pos + 2] + 192
            else:
                hlen, blen = 6, struct.unpack(">I", data[pos + 2:pos + 6])[0]
        else:
            size = {0: 1, 1: 2, 2: 4}[ctb & 3]
            hlen = 1 + size
            blen = int.from_bytes(data[pos + 1:pos + hlen], "big")
        yield data[pos:pos + hlen], data[pos + hlen:pos + hlen + blen]
        pos += hlen + blen


def main():
    mode, rest = sys.argv[1], sys.argv[2:]
    if mode == "version":
        version, src, dst = int(rest[0]), rest[1], rest[2]
        pkts = list(packets(open(src, "rb").read()))
        head, body = pkts[0]
        pkts[0] = (head, bytes([version]) + body[1:])
    else:
        src, dst = rest
        pkts = list(packets(open(src, "rb").read()))
        body = bytes([4]) + struct.pack(">I", 0x5f000000) + bytes([1])
        body += b"\x00\x00" + b"\x00\x11\x01\x00\x01"
        pkts[0] = (bytes([0x99]) + struct.pack(">H", len(body)), body)
    with open(dst, "wb") as out:
        for head, body in pkts:
            out.write(head + body)


main()
