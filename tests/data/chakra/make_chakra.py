#!/usr/bin/python3
"""Writes the Chakra execution-trace test files of tests/data/chakra/ (run from anywhere:
`/usr/bin/python3 tests/data/chakra/make_chakra.py`; needs Debian's python3-protobuf).

Independent of ndrsim's own schema file (models/trace/chakra_et.proto): the messages are built
here at run time from a descriptor written from MLCommons Chakra's published schema
(github.com/mlcommons/chakra, schema/protobuf/et_def.proto: GlobalMetadata.version = 1;
Node.id = 1, name = 2, type = 3, ctrl_deps = 4, data_deps = 5, duration_micros = 7, attr = 10;
AttributeProto.name = 1 and the oneof value int32_val = 7, int64_val = 9, uint64_val = 13,
bool_val = 27, string_val = 29), and framed as Chakra's protolib.py does (each message preceded
by its length as a varint). Files (rank r of PREFIX is PREFIX.r.et):

  ar8.*      8 ranks, one ALL_REDUCE node of comm_size 1 MiB each
  a2a8.*     8 ranks, one ALL_TO_ALL node of comm_size 1 MiB each
  mixed.*    4 ranks (rank 1 gzipped): compute, a memory node, an all-reduce, an all-gather on
             two process groups (pg_name tp0 = ranks 0,1 and tp1 = ranks 2,3), a send/recv ring,
             a GATHER (no ndrsim op) and attributes ndrsim does not use
  bad_truncated.0.et  the metadata, then a length varint cut off by the end of the file
  bad_type.0.et       an ALL_REDUCE whose comm_size is a string_val
  bad_gap.0.et, bad_gap.2.et   rank 1 missing
"""
import gzip
import os

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

F = descriptor_pb2.FieldDescriptorProto
HERE = os.path.dirname(os.path.abspath(__file__))

COMP_NODE, COMM_SEND_NODE, COMM_RECV_NODE, COMM_COLL_NODE = 4, 5, 6, 7
MEM_LOAD_NODE = 2
ALL_REDUCE, ALL_GATHER, GATHER, ALL_TO_ALL = 0, 2, 3, 6


def build_classes():
    fdp = descriptor_pb2.FileDescriptorProto(name="chakra_test_et.proto", package="ChakraProtoMsg",
                                             syntax="proto3")
    attr = fdp.message_type.add(name="AttributeProto")
    attr.oneof_decl.add(name="value")
    attr.field.add(name="name", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    for name, number, typ in [("int32_val", 7, F.TYPE_INT32), ("int64_val", 9, F.TYPE_INT64),
                              ("uint64_val", 13, F.TYPE_UINT64), ("bool_val", 27, F.TYPE_BOOL),
                              ("string_val", 29, F.TYPE_STRING)]:
        attr.field.add(name=name, number=number, type=typ, label=F.LABEL_OPTIONAL, oneof_index=0)
    meta = fdp.message_type.add(name="GlobalMetadata")
    meta.field.add(name="version", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    node = fdp.message_type.add(name="Node")
    node.field.add(name="id", number=1, type=F.TYPE_UINT64, label=F.LABEL_OPTIONAL)
    node.field.add(name="name", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    # NodeType is an enum on the wire: a varint, as int32 encodes it
    node.field.add(name="type", number=3, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    node.field.add(name="ctrl_deps", number=4, type=F.TYPE_UINT64, label=F.LABEL_REPEATED)
    node.field.add(name="data_deps", number=5, type=F.TYPE_UINT64, label=F.LABEL_REPEATED)
    node.field.add(name="duration_micros", number=7, type=F.TYPE_UINT64, label=F.LABEL_OPTIONAL)
    node.field.add(name="attr", number=10, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                   type_name=".ChakraProtoMsg.AttributeProto")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    factory = message_factory.MessageFactory(pool)
    get = lambda n: factory.GetPrototype(pool.FindMessageTypeByName("ChakraProtoMsg." + n))
    return get("AttributeProto"), get("GlobalMetadata"), get("Node")


Attr, Meta, Node = build_classes()


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def framed(msgs):
    return b"".join(varint(len(m.SerializeToString())) + m.SerializeToString() for m in msgs)


def node(nid, typ, attrs=(), data_deps=(), ctrl_deps=(), duration=None, name=""):
    n = Node(id=nid, type=typ, name=name or f"node{nid}")
    n.data_deps.extend(data_deps)
    n.ctrl_deps.extend(ctrl_deps)
    if duration is not None:
        n.duration_micros = duration
    n.attr.append(Attr(name="is_cpu_op", bool_val=False))
    for key, kind, value in attrs:
        n.attr.append(Attr(name=key, **{kind: value}))
    return n


def write(name, data, gz=False):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(gzip.compress(data, mtime=0) if gz else data)


def metadata():
    return Meta(version="1.0.0")


def main():
    for prefix, comm_type in (("ar8", ALL_REDUCE), ("a2a8", ALL_TO_ALL)):
        for r in range(8):
            n = node(1, COMM_COLL_NODE, [("comm_type", "int64_val", comm_type),
                                         ("comm_size", "int64_val", 1 << 20)])
            write(f"{prefix}.{r}.et", framed([metadata(), n]))

    for r in range(4):
        pg = "tp0" if r < 2 else "tp1"
        nodes = [
            node(10, COMP_NODE, [("num_ops", "int64_val", 100)], duration=5),
            node(11, MEM_LOAD_NODE, [("tensor_size", "uint64_val", 4096)], data_deps=[10]),
            node(12, COMM_COLL_NODE, [("comm_type", "int64_val", ALL_REDUCE),
                                      ("comm_size", "int64_val", 4096)], data_deps=[11]),
            node(13, COMM_COLL_NODE, [("comm_type", "int64_val", ALL_GATHER),
                                      ("comm_size", "int64_val", 1024),
                                      ("pg_name", "string_val", pg)],
                 data_deps=[12], ctrl_deps=[10]),
            node(14, COMM_SEND_NODE, [("comm_src", "int32_val", r),
                                      ("comm_dst", "int32_val", (r + 1) % 4),
                                      ("comm_tag", "int32_val", 7),
                                      ("comm_size", "int64_val", 2048)], data_deps=[13]),
            node(15, COMM_RECV_NODE, [("comm_src", "int32_val", (r + 3) % 4),
                                      ("comm_dst", "int32_val", r),
                                      ("comm_tag", "int32_val", 7),
                                      ("comm_size", "int64_val", 2048)], data_deps=[13]),
            node(16, COMP_NODE, [("foo", "string_val", "bar")], data_deps=[14, 15], duration=1),
            node(18, COMM_COLL_NODE, [("comm_type", "int64_val", GATHER),
                                      ("comm_size", "int64_val", 64)]),
            node(19, COMP_NODE, data_deps=[18], duration=2),
        ]
        write(f"mixed.{r}.et", framed([metadata()] + nodes), gz=(r == 1))

    write("bad_truncated.0.et", framed([metadata()]) + b"\x85")
    write("bad_type.0.et", framed([metadata(), node(1, COMM_COLL_NODE, [
        ("comm_type", "int64_val", ALL_REDUCE), ("comm_size", "string_val", "1024")])]))
    for r in (0, 2):
        write(f"bad_gap.{r}.et", framed([metadata(), node(1, COMP_NODE, duration=1)]))


if __name__ == "__main__":
    main()
