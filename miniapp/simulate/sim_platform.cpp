#include "simulate/sim_platform.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/kernel/routing/NetZoneImpl.hpp>

namespace desync::sim {
namespace sg4 = simgrid::s4u;
using Direction = sg4::LinkInRoute::Direction;

namespace {

// A star-zone member's links: sender side only (the default), or both ends (receiver_links);
// made first, routed once the member is in the zone (route), so that the link's name check runs
// before the cluster has children (sim_platform.cpp, build_platform).
struct MemberLink {
  sg4::Link* out = nullptr;                // sender side only
  sg4::SplitDuplexLink* duplex = nullptr;  // both ends
};

MemberLink make_link(sg4::NetZone* zone, const std::string& name, double bandwidth, double latency, bool both_ends) {
  MemberLink m;
  if (both_ends) {
    // A route crosses the sender's half up and the receiver's half down: the latency once, on the
    // way up, so that receiver_links adds bandwidth sharing at the receiver and no second latency.
    m.duplex = zone->create_split_duplex_link(name, bandwidth);
    m.duplex->get_link_up()->set_latency(latency);
    m.duplex->get_link_down()->set_latency(0.0);
    m.duplex->seal();
  } else {
    m.out = zone->create_link(name, bandwidth)->set_latency(latency)->seal();
  }
  return m;
}

void route(sg4::NetZone* zone, simgrid::kernel::routing::NetPoint* point, simgrid::kernel::routing::NetPoint* gateway,
           const MemberLink& m) {
  if (m.duplex) {
    zone->add_route(point, nullptr, gateway, nullptr, {{m.duplex, Direction::UP}}, true);
  } else {
    // Out: the link; in: an empty route (allowed by StarZone), so an arrival shares nothing.
    zone->add_route(point, nullptr, gateway, nullptr, {{m.out, Direction::NONE}}, false);
    zone->add_route(nullptr, point, nullptr, gateway, {}, false);
  }
}

void connect(sg4::NetZone* zone, simgrid::kernel::routing::NetPoint* point, simgrid::kernel::routing::NetPoint* gateway,
             const std::string& name, double bandwidth, double latency, bool both_ends) {
  route(zone, point, gateway, make_link(zone, name, bandwidth, latency, both_ends));
}

}  // namespace

double memory_bound_of(const Platform& p, const RankPlace& x) {
  return p.domain_bandwidth(p.threads_per_rank) * x.core_share;
}

SimHosts build_platform(const Platform& p, int ranks) {
  SimHosts h;
  h.place.reserve(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) h.place.push_back(place_rank(p, r, ranks));
  const int nodes = nodes_needed(p, ranks);
  const double nic_latency = p.inter_latency - p.intra_latency;  // so that an inter-node route adds up to inter_latency
  auto* cluster = sg4::create_star_zone(p.name);
  // Node zones are filled before they join the cluster. SimGrid 3.32 checks a new host's or link's
  // name against every zone of the platform tree (NetZoneImpl::get_host_by_name_or_null, from the
  // root), so filling zones already attached costs O(zones) per host: quadratic in the ranks (4.5 s
  // of set-up at 10^4 ranks, 100 s at 4 x 10^4, most of an hour at 10^5). A zone filled detached,
  // with the cluster's models (what set_parent would copy), and attached afterwards holds the same
  // hosts, links and routes; names stay unique by construction (node and rank numbers).
  simgrid::kernel::routing::NetZoneImpl* models = cluster->get_impl();
  std::vector<std::pair<sg4::NetZone*, simgrid::kernel::routing::NetPoint*>> filled;  // zone, gateway
  filled.reserve(static_cast<std::size_t>(nodes));
  int r = 0;
  for (int n = 0; n < nodes; ++n) {
    const std::string node_name = p.name + "-node" + std::to_string(n);
    auto* node = sg4::create_star_zone(node_name);
    simgrid::kernel::routing::NetZoneImpl* zone = node->get_impl();
    zone->set_network_model(models->get_network_model());
    zone->set_cpu_pm_model(models->get_cpu_pm_model());
    zone->set_cpu_vm_model(models->get_cpu_vm_model());
    zone->set_disk_model(models->get_disk_model());
    zone->set_host_model(models->get_host_model());
    for (int d = 0; d < p.domains; ++d) {
      sg4::Host* mem = node->create_host(node_name + "-mem" + std::to_string(d), p.domain_bandwidth(p.cores_per_domain));
      if (!p.memory_table.empty()) {
        // A measured b(n): the domain's total while k executions stream is b(k x threads).
        const Platform* pp = &p;
        mem->set_sharing_policy(sg4::Host::SharingPolicy::NONLINEAR, [pp](double, int k) {
          return pp->domain_bandwidth(std::min(k * pp->threads_per_rank, pp->cores_per_domain));
        });
      }
      h.memory.push_back(mem->seal());
    }
    for (; r < ranks && h.place[static_cast<std::size_t>(r)].node == n; ++r) {
      const std::string name = node_name + "-rank" + std::to_string(r);
      sg4::Host* host = node->create_host(name, 1e9)->seal();
      connect(node, host->get_netpoint(), nullptr, name + "-link", p.intra_bandwidth, p.intra_latency, p.receiver_links);
      h.rank.push_back(host);
    }
    filled.emplace_back(node, node->create_router(node_name + "-gw"));
  }
  std::vector<MemberLink> nics;
  nics.reserve(filled.size());
  for (std::size_t n = 0; n < filled.size(); ++n)
    nics.push_back(make_link(cluster, p.name + "-node" + std::to_string(n) + "-nic", p.inter_bandwidth, nic_latency,
                             p.receiver_links));
  for (std::size_t n = 0; n < filled.size(); ++n) {
    auto [node, gateway] = filled[n];
    node->set_parent(cluster);
    node->seal();
    route(cluster, node->get_netpoint(), gateway, nics[n]);
  }
  // Sealing is still O(hosts) per node zone in SimGrid 3.32 (NetZoneImpl::seal lists its hosts by
  // filtering every host of the platform): the set-up's remaining quadratic term, about a minute at
  // 10^5 ranks of 20 per node.
  cluster->seal();
  return h;
}

}  // namespace desync::sim
