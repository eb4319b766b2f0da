#include "sim_model/sim_collectives.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace desync::sim {
namespace {

// Chunk j of `chunks` contiguous chunks of `count` elements (the first count % chunks one longer,
// as comm/collectives.hpp's part_of cuts N_DUP parts).
std::int64_t chunk_begin(std::int64_t count, int chunks, int j) {
  const std::int64_t base = count / chunks, extra = count % chunks;
  return j * base + (j < extra ? j : extra);
}

int floor_pow2(int p) {
  int q = 1;
  while (2 * q <= p) q *= 2;
  return q;
}

int log2_of(int q) {  // q a power of two
  int l = 0;
  while ((1 << l) < q) ++l;
  return l;
}

// Binomial scatter of p chunks from relative rank 0, then a ring allgather (MPICH's and the
// study's long-message broadcast).
std::vector<CollStage> bcast_stages(int p, std::int64_t count, const std::vector<int>& global) {
  std::vector<CollStage> stages;
  int top = 1;
  while (top < p) top *= 2;
  const auto range = [&](int first, int last) {  // chunks [first, last)
    return std::pair<std::int64_t, std::int64_t>{chunk_begin(count, p, first), chunk_begin(count, p, last)};
  };
  for (int m = top / 2; m >= 1; m /= 2) {
    CollStage st;
    for (int v = 0; v + m < p; v += 2 * m) {
      const auto [b, e] = range(v + m, std::min(v + 2 * m, p));
      st.messages.push_back({global[static_cast<std::size_t>(v)], global[static_cast<std::size_t>(v + m)], b, e});
    }
    stages.push_back(std::move(st));
  }
  for (int s = 0; s + 1 < p; ++s) {
    CollStage st;
    for (int v = 0; v < p; ++v) {
      const int c = ((v - s) % p + p) % p;
      const auto [b, e] = range(c, c + 1);
      st.messages.push_back({global[static_cast<std::size_t>(v)], global[static_cast<std::size_t>((v + 1) % p)], b, e});
    }
    stages.push_back(std::move(st));
  }
  return stages;
}

// Rabenseifner: ranks beyond the largest power of two q <= p first hand their whole vector to a
// partner below q, then a reduce-scatter by recursive halving among the q (each ends with chunk
// v of q) and a binomial gather of the chunks to relative rank 0.
std::vector<CollStage> reduce_stages(int p, std::int64_t count, const std::vector<int>& global) {
  std::vector<CollStage> stages;
  const int q = floor_pow2(p);
  const auto g = [&](int v) { return global[static_cast<std::size_t>(v)]; };
  if (q < p) {
    CollStage st{{}, true};
    for (int v = q; v < p; ++v) st.messages.push_back({g(v), g(v - q), 0, count});
    stages.push_back(std::move(st));
  }
  std::vector<int> lo(static_cast<std::size_t>(q), 0), hi(static_cast<std::size_t>(q), q);  // chunks held
  for (int d = q / 2; d >= 1; d /= 2) {
    CollStage st{{}, true};
    for (int v = 0; v < q; ++v) {
      const auto i = static_cast<std::size_t>(v);
      const int mid = (lo[i] + hi[i]) / 2;
      // The lower half stays with the partner whose bit d is clear.
      const int send_lo = (v & d) ? lo[i] : mid, send_hi = (v & d) ? mid : hi[i];
      st.messages.push_back({g(v), g(v ^ d), chunk_begin(count, q, send_lo), chunk_begin(count, q, send_hi)});
    }
    for (int v = 0; v < q; ++v) {
      const auto i = static_cast<std::size_t>(v);
      const int mid = (lo[i] + hi[i]) / 2;
      if (v & d)
        lo[i] = mid;
      else
        hi[i] = mid;
    }
    stages.push_back(std::move(st));
  }
  for (int d = 1; d < q; d *= 2) {
    CollStage st;
    for (int v = d; v < q; v += 2 * d)
      st.messages.push_back({g(v), g(v - d), chunk_begin(count, q, v), chunk_begin(count, q, v + d)});
    stages.push_back(std::move(st));
  }
  return stages;
}

// Rabenseifner's allreduce: the reduction's fold-in and recursive halving, then an allgather by
// recursive doubling among the q (each pair swaps the chunks it holds), then the q hand the
// result back to the ranks they folded in.
std::vector<CollStage> allreduce_stages(int p, std::int64_t count, const std::vector<int>& global) {
  std::vector<CollStage> stages = reduce_stages(p, count, global);
  const int q = floor_pow2(p);
  stages.resize(stages.size() - static_cast<std::size_t>(log2_of(q)));  // not the gather to the root
  const auto g = [&](int v) { return global[static_cast<std::size_t>(v)]; };
  for (int d = 1; d < q; d *= 2) {
    CollStage st;
    for (int v = 0; v < q; ++v) {
      const int first = v & ~(d - 1);  // chunks [first, first + d) held
      st.messages.push_back({g(v), g(v ^ d), chunk_begin(count, q, first), chunk_begin(count, q, first + d)});
    }
    stages.push_back(std::move(st));
  }
  if (q < p) {
    CollStage st;
    for (int v = q; v < p; ++v) st.messages.push_back({g(v - q), g(v), 0, count});
    stages.push_back(std::move(st));
  }
  return stages;
}

}  // namespace

int collective_stage_count(CollKind kind, int p) {
  if (p <= 1) return 0;
  if (kind == CollKind::bcast) {
    int top = 1, l = 0;
    while (top < p) top *= 2, ++l;
    return l + p - 1;
  }
  const int q = floor_pow2(p);
  return (q < p ? (kind == CollKind::allreduce ? 2 : 1) : 0) + 2 * log2_of(q);
}

std::vector<CollStage> collective_stages(CollKind kind, const std::vector<int>& group, int root, std::int64_t count) {
  const int p = static_cast<int>(group.size());
  if (p == 0 || root < 0 || root >= p) throw std::logic_error("collective_stages: empty group or root outside it");
  std::vector<int> global(group.size());  // by relative rank: the root first
  for (int v = 0; v < p; ++v) global[static_cast<std::size_t>(v)] = group[static_cast<std::size_t>((v + root) % p)];
  if (p == 1) return {};
  switch (kind) {
    case CollKind::bcast: return bcast_stages(p, count, global);
    case CollKind::reduce: return reduce_stages(p, count, global);
    case CollKind::allreduce: return allreduce_stages(p, count, global);
  }
  return {};
}

std::vector<CollStage> merge_stages(const std::vector<std::vector<CollStage>>& concurrent) {
  std::vector<CollStage> out;
  for (const auto& one : concurrent) {
    if (out.empty()) {
      out = one;
      continue;
    }
    if (one.size() != out.size()) throw std::logic_error("merge_stages: concurrent collectives with different stage counts");
    for (std::size_t s = 0; s < one.size(); ++s)
      out[s].messages.insert(out[s].messages.end(), one[s].messages.begin(), one[s].messages.end());
  }
  return out;
}

CollectiveSteps append_collective(Program& p, const std::vector<std::vector<CollStage>>& parts, std::int64_t element_bytes) {
  CollectiveSteps steps;
  std::size_t stages = 0;
  for (const auto& part : parts) stages = std::max(stages, part.size());
  // exchange[c][s], and the amount slot of a summing stage (-1: none)
  std::vector<std::vector<int>> exchange(parts.size()), slot(parts.size());
  for (std::size_t c = 0; c < parts.size(); ++c)
    for (const CollStage& st : parts[c]) {
      const std::size_t x = p.ranks.front().exchange.size();
      for (RankWork& w : p.ranks) w.exchange.emplace_back();
      exchange[c].push_back(static_cast<int>(x));
      std::size_t a = 0;
      slot[c].push_back(-1);
      if (st.sums) {
        a = p.ranks.front().amount.size();
        for (RankWork& w : p.ranks) w.amount.push_back(0.0);
        slot[c].back() = static_cast<int>(a);
      }
      for (const StageMessage& m : st.messages) {
        const std::int64_t bytes = (m.end - m.begin) * element_bytes;
        if (bytes <= 0 || m.from == m.to) continue;  // nothing, or a copy to itself
        if (m.from < 0 || m.to < 0 || m.from >= static_cast<int>(p.ranks.size()) || m.to >= static_cast<int>(p.ranks.size()))
          throw std::logic_error("append_collective: a message to or from rank " + std::to_string(m.from < 0 ? m.from : m.to) +
                                 " outside the program");
        p.ranks[static_cast<std::size_t>(m.from)].exchange[x].send.push_back({m.to, bytes});
        RankWork& to = p.ranks[static_cast<std::size_t>(m.to)];
        to.exchange[x].recv.push_back({m.from, bytes});
        // The sum reads the received and the own part and writes the result.
        if (st.sums) to.amount[a] += 3.0 * static_cast<double>(bytes);
      }
    }
  for (std::size_t c = 0; c < parts.size(); ++c)
    if (!parts[c].empty()) steps.posts.push_back({Op::post, exchange[c][0]});
  for (std::size_t s = 0; s < stages; ++s)
    for (std::size_t c = 0; c < parts.size(); ++c) {
      if (s >= parts[c].size()) continue;  // this part is done
      steps.rest.push_back({Op::wait, exchange[c][s]});
      if (slot[c][s] >= 0) steps.rest.push_back({Op::sum, slot[c][s]});
      if (s + 1 < parts[c].size()) steps.rest.push_back({Op::post, exchange[c][s + 1]});
    }
  return steps;
}

}  // namespace desync::sim
