# `desync plan` on the study's SymmSquareCube deck (1hsg_70, 4 x 4 x 4, 1 PPN, 12,000 MB/s):
# the JSON parses and reproduces the worked example of papers.md E.4 (27.89 MB blocks, baseline
# model time 22.08 ms), through the command line as a user runs it.
execute_process(COMMAND ${PLAN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "desync plan failed (${code}): ${err}")
endif()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plan_ssc.json "${out}")
set(check [=[
import json, sys
p = json.load(open(sys.argv[1]))
assert p["workload"] == "symmsquarecube" and p["mesh"] == [4, 4, 4] and p["nodes"] == 64, p
assert p["block_bytes"] == 1912 * 1912 * 8, p["block_bytes"]
assert round(p["block_bytes"] / 2**20, 2) == 27.89
assert round(p["totals"]["model_time_s"] * 1e3, 2) == 22.08, p["totals"]["model_time_s"]
kinds = [o["kind"] for o in p["ops"]]
assert kinds.count("bcast") == 3 and kinds.count("reduce") == 2 and kinds.count("p2p") == 2, kinds
assert all(o["inter_node_bytes"] == o["total_bytes"] for o in p["ops"]), "1 PPN: every byte crosses nodes"
print("plan ssc json ok")
]=])
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plan_ssc_check.py "${check}")
execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_BINARY_DIR}/plan_ssc_check.py ${CMAKE_CURRENT_BINARY_DIR}/plan_ssc.json
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the plan's JSON does not reproduce the worked example")
endif()
