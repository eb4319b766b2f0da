#pragma once
// Reads each workload's own table ([triad], [spmv], [chebfd], [stencil], [pingpong], [toy],
// [cg], [collbench], [matvec2d], [symmsquarecube], [placement]) with the same rules as every other table; load_deck.cpp reads the shared tables and
// calls these for the tables the deck's workload uses. docs/decks.md mirrors these readers.
#include "config/config.hpp"
#include "config/table_reader.hpp"

namespace desync {

TriadConfig read_triad(TableReader r);
SpmvConfig read_spmv(TableReader r);
ChebfdConfig read_chebfd(TableReader r);
StencilConfig read_stencil(TableReader r);
PingpongConfig read_pingpong(TableReader r);
ToyConfig read_toy(TableReader r);
CgConfig read_cg(TableReader r);
CollbenchConfig read_collbench(TableReader r);
Matvec2dConfig read_matvec2d(TableReader r);
SymmSquareCubeConfig read_symmsquarecube(TableReader r);
SaturationConfig read_saturation(TableReader r);
// [run] stream_table and stream_size (the STREAM table of the provenance), read with [run].
void read_stream_table_keys(TableReader& r, RunConfig& c);
PlacementConfig read_placement(TableReader r);

}  // namespace desync
