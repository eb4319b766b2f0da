# Runs `desync plan ... --format json` and checks the output with Python's json module against
# the documented keys and the generator's totals (SPIN 16 sites, open, half filling).
execute_process(COMMAND ${PLAN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "desync plan failed (${code}): ${err}")
endif()
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plan.json "${out}")
set(check [=[
import json, sys
p = json.load(open(sys.argv[1]))
assert p["nr"] == 12870 and p["nnz"] == 12870 * 9, (p["nr"], p["nnz"])
assert p["bandwidth"] == 3432, p["bandwidth"]
assert len(p["ranks"]) == p["ranks_total"] == 6
assert sum(r["rows"] for r in p["ranks"]) == p["nr"]
assert sum(r["nnz"] for r in p["ranks"]) == p["nnz"]
for r in p["ranks"]:
    for m in r["partners"]:
        assert set(m) == {"rank", "entries", "bytes", "distance", "intra_node"}, m
        assert m["distance"] == m["rank"] - r["rank"] and m["bytes"] == 8 * m["entries"]
        assert m["intra_node"] == (m["rank"] // 3 == r["rank"] // 3)
prof = p["profile"]
sizes = [m["bytes"] for r in p["ranks"] for m in r["partners"]]
assert prof["msg_bytes_min"] == min(sizes) and prof["msg_bytes_max"] == max(sizes)
assert abs(prof["msg_bytes_mean"] - sum(sizes) / len(sizes)) < 1e-6 * max(sizes)
assert {d["distance"] for d in prof["distances"]} == {m["distance"] for r in p["ranks"] for m in r["partners"]}
# the spy grid (default G = min(256, nr)): edges ceil(b nr / G), nonzero blocks summing to nnz
grid = p["spy_grid"]
assert grid["size"] == 256 and grid["edges"] == [-(-b * p["nr"] // 256) for b in range(257)], grid["edges"][:4]
assert sum(n for i, j, n in grid["blocks"]) == p["nnz"]
assert all(0 <= i < 256 and 0 <= j < 256 and n > 0 for i, j, n in grid["blocks"])
e = grid["edges"]
assert all(max(e[i] - e[j + 1], e[j] - e[i + 1]) < p["bandwidth"] for i, j, n in grid["blocks"]), "a block beyond the bandwidth"
print("plan json ok:", len(sizes), "messages")
]=])
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/plan_check.py "${check}")
execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_BINARY_DIR}/plan_check.py ${CMAKE_CURRENT_BINARY_DIR}/plan.json
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "plan JSON check failed")
endif()
