# Bad-input regression cases of issue 16 for the NCCL importer, config and sweep YAML and
# byte-order marks (label e2e): each small input under tests/data/ with its exit code and its
# one-line message, or, for inputs that must be accepted, the expected result. Included after
# run_cli.cmake (alphabetical order), whose ndr_run_e2e_py and NDR_RUN_* it uses.
set(NDR_IN_DATA ${CMAKE_CURRENT_SOURCE_DIR}/../data)
set(NDR_IN_OUT ${CMAKE_CURRENT_BINARY_DIR}/inputs_out)
file(MAKE_DIRECTORY ${NDR_IN_OUT})

# NCCL importer: counts that wrapped (an alltoall's per-peer count x ranks gave "count":4 or 0)
# are refused, and every error names the log and its line, never the output .jsonl (exit 2).
foreach(case "alltoall_count_wraps|6: count: alltoall count 4611686018427387905 per peer x 4 ranks exceeds"
             "alltoall_count_zero|4: count: alltoall count 9223372036854775808 per peer x 2 ranks exceeds"
             "count_too_large|4: count: 281474976710657 exceeds the largest trace count"
             "members_disagree|5: count: members of \\(comm 0, seq 0\\) disagree: 2048 here, 1024 at line 4"
             "missing_member|4: seq: allreduce \\(comm 0, seq 0\\) has no record for global rank 1"
             "bom_inside|3: log: a UTF-8 byte-order mark \\(EF BB BF\\) is allowed only at the start"
             "placement_same_gpu|2: nvmlDev: rank 1 \\(process 'h:2'\\) is on GPU 2 of host 'h' like rank 0"
             "nnodes_mismatch|3: nNodes: 1 here, but the 2 ranks of commId 0x1 are on 2 hosts \\('a', 'b'\\)"
             "nvmldev_not_a_number|2: nvmlDev: expected a decimal number 0..4294967295, got 'GPU-1'")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 rx)
  ndr_run_e2e_py(import_err_${file} error ${NDR_RUN_BIN} 2
    "^ndrsim: error: .*bad_nccl/${file}\\.log:${rx}" --
    import nccl-log ${NDR_IN_DATA}/bad_nccl/${file}.log -o ${NDR_IN_OUT}/${file}.jsonl)
endforeach()

# Sweep and config files: a key given twice (the first won), an unclosed quote (read to the end
# of the file: '4096 ') and a byte-order mark inside the file are refused at their line; an
# empty sweep value names its own line.
foreach(case "duplicate_key|6: axes\\.traffic\\.load: duplicate key \\(already set on line 5\\)"
             "duplicate_top_key|5: repeats: duplicate key \\(already set on line 4\\)"
             "unclosed_quote|6: set\\.switch\\.buffer_per_vl: unclosed quote: \"64KiB has no closing \""
             "bom_inside|3: a UTF-8 byte-order mark \\(EF BB BF\\) is allowed only at the start"
             "empty_value|4: repeats: missing value$"
             "set_value|5: switch\\.ports: must be in 2\\.\\.64, got 100$")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 rx)
  ndr_run_e2e_py(sweep_err_${file} error ${NDR_RUN_BIN} 2
    "^ndrsim: error: .*bad_sweeps/${file}\\.yaml:${rx}" --
    sweep ${NDR_IN_DATA}/bad_sweeps/${file}.yaml --dry-run)
endforeach()
foreach(case "duplicate_key|4: switch\\.ports: duplicate key \\(already set on line 3\\)"
             "unclosed_quote|3: switch\\.buffer_per_vl: unclosed quote: \"4096 has no closing \""
             "bom_inside|3: a UTF-8 byte-order mark \\(EF BB BF\\) is allowed only at the start")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 rx)
  ndr_run_e2e_py(config_err_${file} error ${NDR_RUN_BIN} 2
    "^ndrsim: error: .*config/${file}\\.yaml:${rx}" --
    config show --config ${NDR_IN_DATA}/config/${file}.yaml)
endforeach()
# Cross-field refusals name the line that set the key: a link rate one beat cannot clock
# (named no origin before), and fault injection in synthetic traffic (from a file; e2e.traffic_err_fault_key has --set).
ndr_run_e2e_py(config_err_rate_too_high error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*config/rate_too_high\\.yaml:3: link\\.rate: too high for switch\\.datapath_width 64 B" --
  config show --config ${NDR_IN_DATA}/config/rate_too_high.yaml)
ndr_run_e2e_py(traffic_err_fault_file error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*config/traffic_fault\\.yaml:3: fault\\.icrc_error_rate: synthetic traffic has no RC transport" --
  traffic -q --config ${NDR_IN_DATA}/config/traffic_fault.yaml)
# A dry run lists an invalid 2000-character value cut at 80 characters and its error at 500.
ndr_run_e2e_py(sweep_dry_run_long_value ok ${NDR_RUN_BIN}
  "invalid   switch\\.ports=9{80}\\.\\.\\. \\(2000 characters\\) seed=1  \\(.*long_value\\.yaml:6: switch\\.ports: '9+\\.\\.\\. \\([0-9]+ characters\\)\\)$" --
  sweep ${NDR_IN_DATA}/bad_sweeps/long_value.yaml --dry-run --db ${NDR_IN_OUT}/long_value.db)
ndr_run_e2e_py(run_err_bom_inside error ${NDR_RUN_BIN} 2
  "^ndrsim: error: .*bad_traces/bom_inside\\.jsonl:3: json: a UTF-8 byte-order mark \\(EF BB BF\\) is allowed only at the start of the file$" --
  run ${NDR_RUN_BAD}/bom_inside.jsonl -q)

# A byte-order mark at the start of a file is skipped by every reader. Traces: before a comment
# line (refused with a garbled message before) and before the first record (accepted before).
ndr_run_e2e_py(run_bom_comment report ${NDR_RUN_BIN} ${NDR_IN_OUT}/bom_comment 1 --
  run ${NDR_IN_DATA}/bom/trace_bom_comment.jsonl)
ndr_run_e2e_py(run_bom_record report ${NDR_RUN_BIN} ${NDR_IN_OUT}/bom_record 1 --
  run ${NDR_IN_DATA}/bom/trace_bom_record.jsonl)
ndr_run_e2e_py(config_bom ok ${NDR_RUN_BIN} "^  ports: 8 " --
  config show --config ${NDR_IN_DATA}/bom/config_bom.yaml)
ndr_run_e2e_py(sweep_bom ok ${NDR_RUN_BIN} "^2 points \\(grid 2, 1 repeats\\), 2 to run; sweep 'bom'" --
  sweep ${NDR_IN_DATA}/bom/sweep_bom.yaml --dry-run --db ${NDR_IN_OUT}/sweep_bom.db)
# The log's mark sits right before the first INIT line: it used to become part of that
# process's name, so its COLL line found no INIT line.
ndr_run_e2e_py(import_bom ok ${NDR_RUN_BIN}
  "imported 2 COLL lines \\(2 INIT lines\\) into .*: 2 ranks, 1 communicators, 1 collectives" --
  import nccl-log ${NDR_IN_DATA}/bom/nccl_bom.log -o ${NDR_IN_OUT}/nccl_bom.jsonl)

# Huge collectives are counted up front (coll::transfer_count) and refused before anything is
# built: 2^48 fp64 on a host algorithm, on SHARP (its chunk count wrapped to 0 and the run never
# finished; now a fallback to the host algorithm, refused the same way), and a huge collective
# after a small one, refused before the simulation starts (with a 1 us limit the old check was
# never reached: exit 1, "did not finish within sim.run_time_limit").
foreach(case "huge_count_2_48|4: count: allreduce collective of 2251799813685248 bytes decomposes into 12884901888 transfers, more than the 4294967295 a replay can index"
             "huge_count_sharp|4: count: allreduce collective of 2251799813685248 bytes decomposes into 12884901888 transfers"
             "huge_count_second|8: count: allreduce collective of 8796093022208 bytes decomposes into 50331648 transfers")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 rx)
  ndr_run_e2e_py(run_err_${file} error ${NDR_RUN_BIN} 2
    "^ndrsim: error: .*bad_traces/${file}\\.jsonl:${rx}" --
    run ${NDR_RUN_BAD}/${file}.jsonl -q --set sim.run_time_limit=1us)
  set_tests_properties(e2e.run_err_${file} PROPERTIES TIMEOUT 20)
endforeach()

# A config or sweep file without end (/dev/zero) grew until memory ran out: files stop at 16 MiB.
ndr_run_e2e_py(config_err_endless_file error ${NDR_RUN_BIN} 2
  "^ndrsim: error: /dev/zero: larger than 16 MiB" -- config show --config /dev/zero)
ndr_run_e2e_py(sweep_err_endless_file error ${NDR_RUN_BIN} 2
  "^ndrsim: error: /dev/zero: larger than 16 MiB" -- sweep /dev/zero --dry-run)
# ... and so does an NCCL log line (as a trace line).
ndr_run_e2e_py(import_err_endless_line error ${NDR_RUN_BIN} 2
  "^ndrsim: error: /dev/zero:1: log: line longer than 16 MiB" --
  import nccl-log /dev/zero -o ${NDR_IN_OUT}/zero.jsonl)

# A sweep point whose axis value does not validate names the sweep file's line (was `--set`).
ndr_run_e2e_py(sweep_point_error_line ok ${NDR_RUN_BIN}
  "invalid +switch\\.ports=100 seed=1  \\(.*axis_value\\.yaml:6: switch\\.ports: must be in 2\\.\\.64, got 100\\)$" --
  sweep ${CMAKE_CURRENT_SOURCE_DIR}/../sweep/axis_value.yaml --dry-run --db ${NDR_IN_OUT}/axis_value.db)

# NCCL log excerpts from public issues (no INIT lines; tests/data/nccl_excerpts, each file names
# its source): the import says it replays the shown sequence on every rank, and the trace runs
# on DGX-class nodes (4 allreduces of NVIDIA/nccl#203 on 2 GPUs of one dgx-h100 node).
ndr_run_e2e_py(import_excerpt_203 ok ${NDR_RUN_BIN}
  "excerpt: no INIT lines, so every rank of a communicator replays the collective sequence" --
  import nccl-log ${NDR_IN_DATA}/nccl_excerpts/nccl_issue_203.log -o ${NDR_IN_OUT}/excerpt_203.jsonl)
set_tests_properties(e2e.import_excerpt_203 PROPERTIES FIXTURES_SETUP excerpt_203)
ndr_run_e2e_py(run_excerpt_203 report ${NDR_RUN_BIN} ${NDR_IN_OUT}/excerpt_203_run 4 --
  run ${NDR_IN_OUT}/excerpt_203.jsonl --preset dgx-h100)
set_tests_properties(e2e.run_excerpt_203 PROPERTIES FIXTURES_REQUIRED excerpt_203)
ndr_run_e2e_py(import_excerpt_1193 ok ${NDR_RUN_BIN}
  "imported 4 COLL lines \\(0 INIT lines\\) into .*: 128 ranks, 1 communicators, 2 collectives" --
  import nccl-log ${NDR_IN_DATA}/nccl_excerpts/nccl_issue_1193_ray.log
  -o ${NDR_IN_OUT}/excerpt_1193.jsonl)
