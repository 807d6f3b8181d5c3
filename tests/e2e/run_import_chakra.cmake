# `ndrsim import chakra`, `import goal` and `export chakra` end to end (label e2e). Included
# after run_cli.cmake (alphabetical order), whose ndr_run_e2e_py and NDR_RUN_* it uses.
set(NDR_CK_DATA ${CMAKE_CURRENT_SOURCE_DIR}/../data)
set(NDR_CK_OUT ${CMAKE_CURRENT_BINARY_DIR}/chakra_out)
file(MAKE_DIRECTORY ${NDR_CK_OUT})

# The Chakra files of tests/data/chakra/make_chakra.py (8-rank allreduce and all-to-all of
# 1 MiB) replay to the same collectives and completion times as `ndrsim gen collective`'s.
foreach(case "ar8|allreduce" "a2a8|alltoall")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 prefix)
  list(GET parts 1 op)
  add_test(NAME e2e.chakra_replay_${prefix}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/chakra_check.py replay
      ${NDR_RUN_BIN} ${NDR_CK_OUT}/replay_${prefix} ${NDR_CK_DATA}/chakra/${prefix} ${op} 1MiB 8
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.chakra_replay_${prefix} PROPERTIES LABELS e2e TIMEOUT 120
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endforeach()

# The summary names the unmapped nodes and ignored attributes (make_chakra.py's mixed files).
ndr_run_e2e_py(chakra_import_summary ok ${NDR_RUN_BIN}
  "imported 36 Chakra nodes of 4 ranks into .*: 8 collective, 8 send/recv, 12 compute records, 3 communicators, 7 collectives"
  "unmapped nodes: 8 \\(COMM_COLL_NODE GATHER 4, MEM_LOAD_NODE 4\\)"
  "ignored attributes: .*foo 4, is_cpu_op 36, num_ops 4" --
  import chakra ${NDR_CK_DATA}/chakra/mixed -o ${NDR_CK_OUT}/mixed.jsonl)

# Bad Chakra input: one line naming the file, node or message, and field; exit 2.
foreach(case "bad_truncated|bad_truncated\\.0\\.et: message 1 \\(byte 8\\): length: truncated varint"
             "bad_type|bad_type\\.0\\.et: node 1: comm_size: must be an integer \\(int64_val\\), got string_val"
             "bad_gap|bad_gap\\.1\\.et: missing: rank 1 of the 3 ranks has no file")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 prefix)
  list(GET parts 1 rx)
  ndr_run_e2e_py(chakra_err_${prefix} error ${NDR_RUN_BIN} 2 "^ndrsim: error: .*${rx}" --
    import chakra ${NDR_CK_DATA}/chakra/${prefix} -o ${NDR_CK_OUT}/${prefix}.jsonl)
endforeach()
ndr_run_e2e_py(chakra_err_dtype error ${NDR_RUN_BIN} 2 "^ndrsim: error: --dtype: unknown dtype 'fp33'" --
  import chakra ${NDR_CK_DATA}/chakra/ar8 --dtype fp33 -o ${NDR_CK_OUT}/x.jsonl)
# export refuses a one-sided RDMA record (no Chakra node type), naming the trace line
ndr_run_e2e_py(chakra_export_err_rdma error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*example_all_records\\.jsonl:15: op: rdma_write has no Chakra node type" --
  export chakra ${NDR_RUN_TRACES}/example_all_records.jsonl -o ${NDR_CK_OUT}/example)
# export writes one file per rank of a shipped trace
ndr_run_e2e_py(chakra_export_shipped ok ${NDR_RUN_BIN}
  "wrote .*alltoall_16\\.0\\.et \\.\\. .*alltoall_16\\.15\\.et: 16 ranks" --
  export chakra ${NDR_RUN_TRACES}/alltoall_16.jsonl -o ${NDR_CK_OUT}/alltoall_16)

# GOAL: the hand-written schedule's summary; a schedule error names its line (exit 2).
ndr_run_e2e_py(goal_import_small ok ${NDR_RUN_BIN}
  "imported 3 sends, 3 recvs, 4 calcs \\(5 requires, 2 irequires\\) into .*: 3 ranks, 3 send/recv pairs" --
  import goal ${NDR_CK_DATA}/goal/small.goal -o ${NDR_CK_OUT}/small.jsonl)
ndr_run_e2e_py(goal_import_err_anysource error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*bad_anysource\\.goal:4: from: any-source receives \\(-1\\) are not supported" --
  import goal ${NDR_CK_DATA}/goal/bad_anysource.goal -o ${NDR_CK_OUT}/bad_anysource.jsonl)
