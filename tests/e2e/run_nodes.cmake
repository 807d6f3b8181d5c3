# Node model (issue 17, label e2e): the node.* keys' refusals, the header placement checked
# against node.gpus, `gen --nodes --gpus-per-node`, the dgx presets. Included after
# run_cli.cmake (alphabetical order), whose ndr_run_e2e_py and NDR_RUN_* it uses.
set(NDR_NODE_OUT ${CMAKE_CURRENT_BINARY_DIR}/nodes_out)
file(MAKE_DIRECTORY ${NDR_NODE_OUT})

ndr_run_e2e_py(nodes_err_gpus_range error ${NDR_RUN_BIN} 2 "node\\.gpus" "1\\.\\.64" --
  config show --set node.gpus=65)
ndr_run_e2e_py(nodes_err_bandwidth_unit error ${NDR_RUN_BIN} 2 "node\\.nvlink_bandwidth" --
  config show --set node.nvlink_bandwidth=450GB)
# A placement on GPU 1 with node.gpus = 1 (the default): exit 2, the trace and the field named.
ndr_run_e2e_py(nodes_err_placement_gpu error ${NDR_RUN_BIN} 2
  "placement_gpu\\.jsonl:1: placement\\[1\\]: gpu 1 out of range \\(node\\.gpus 1" --
  run ${NDR_RUN_BAD}/placement_gpu.jsonl -q)
ndr_e2e(nodes_gen_collective ARGS gen collective --op allreduce --nodes 2 --gpus-per-node 8
  --bytes 1MiB -o ${NDR_NODE_OUT}/ar16.jsonl REGEX "wrote .*ar16\\.jsonl: 16 ranks")
ndr_run_e2e_py(nodes_err_gen_mismatch error ${NDR_RUN_BIN} 2 "--ranks" "differs" --
  gen ddp --model resnet50 --ranks 8 --nodes 2 --gpus-per-node 8 -o ${NDR_NODE_OUT}/x.jsonl)
ndr_e2e(nodes_preset_dgx_h100 ARGS config show --preset dgx-h100
  REGEX "topology: rail_fat_tree")
ndr_e2e(nodes_preset_dgx_a100 ARGS config show --preset dgx-a100 REGEX "nvls: false")

# `config show` says the derived fabric (nodes, GPUs, HCAs, rails, leaves, spines, levels):
# equal to hand-derived counts and to report.json's `fabric` of a run (count_fabric, one
# function for both). `import nccl-log` of a 2 x 8-GPU log writes the header placement and the
# trace replays on 8-GPU nodes (nodes_check.py).
function(ndr_nodes_py name)
  add_test(NAME e2e.${name}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/nodes_check.py ${ARGN}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(e2e.${name} PROPERTIES LABELS e2e TIMEOUT 300
    ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1)
endfunction()
ndr_nodes_py(nodes_config_show_counts counts ${NDR_RUN_BIN} ${NDR_NODE_OUT}/counts)
ndr_nodes_py(nodes_import_placement import ${NDR_RUN_BIN}
  ${CMAKE_CURRENT_SOURCE_DIR}/../data/nccl/dgx_2nodes_8gpus.log ${NDR_NODE_OUT}/import)
ndr_run_e2e_py(nodes_err_config_show_nodes error ${NDR_RUN_BIN} 2 "--nodes" "65536 hosts" --
  config show --preset dgx-h100 --nodes 8192)
