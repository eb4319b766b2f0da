#include "comm/collectives.hpp"

#include <stdexcept>

#include "core/clock.hpp"
#include "core/mpi_util.hpp"

namespace desync {
namespace {

std::int64_t type_bytes(MPI_Datatype t) {
  int s = 0;
  MPI_Type_size(t, &s);
  return s;
}

}  // namespace

CommFamily::CommFamily(MPI_Comm comm, int n_dup, int id, bool owned) : comms_{comm}, id_(id), owned_(owned) {
  for (int c = 1; c < n_dup; ++c) MPI_Comm_dup(comm, &comms_.emplace_back());
  rank_ = comm_rank(comm);
  size_ = comm_size(comm);
}

CommFamily::~CommFamily() {
  for (std::size_t c = 1; c < comms_.size(); ++c) MPI_Comm_free(&comms_[c]);
  if (owned_) MPI_Comm_free(&comms_[0]);
}

std::unique_ptr<CommFamily> split_family(MPI_Comm comm, int color, int key, int n_dup, int id) {
  MPI_Comm s;
  MPI_Comm_split(comm, color, key, &s);
  return std::make_unique<CommFamily>(s, n_dup, id, true);
}

Collectives::Collectives(int max_requests, std::shared_ptr<CollectiveLog> log, bool staged)
    : req_(static_cast<std::size_t>(max_requests), MPI_REQUEST_NULL),
      event_(static_cast<std::size_t>(max_requests), -1),
      index_(static_cast<std::size_t>(max_requests), 0),
      log_(std::move(log)) {
  // Recording or not is chosen here, once: no call tests it.
  if (log_) {
    clock_ = now;
    note_ = note_logged;
    done_ = done_logged;
    wait_all_ = wait_all_logged;
  }
  if (staged) {
    mirrors_ = std::make_unique<HostMirrors>();
    pending_.assign(static_cast<std::size_t>(max_requests), Pending{});
    in_ = in_staged;
    out_ = out_staged;
    back_ = back_staged;
    later_ = later_staged;
    flush_ = flush_staged;
  }
}

void Collectives::mirror(const void* device, std::size_t bytes) {
  if (mirrors_) mirrors_->add(device, bytes);
}

void Collectives::refresh_mirror(const void* device, std::size_t bytes) {
  if (mirrors_) mirrors_->to_host(device, bytes);
}

namespace {
std::size_t bytes_of(std::int64_t count, MPI_Datatype t) { return static_cast<std::size_t>(count * type_bytes(t)); }
}  // namespace

const void* Collectives::in_staged(Collectives& x, const void* p, std::int64_t count, MPI_Datatype t) {
  return x.mirrors_->to_host(p, bytes_of(count, t));
}

void* Collectives::out_staged(Collectives& x, void* p, std::int64_t count, MPI_Datatype t) {
  return x.mirrors_->find(p, bytes_of(count, t));
}

void Collectives::back_staged(Collectives& x, void* p, std::int64_t count, MPI_Datatype t) {
  x.mirrors_->to_device(p, bytes_of(count, t));
}

void Collectives::later_staged(Collectives& x, int s, void* p, std::int64_t count, MPI_Datatype t) {
  x.pending_[static_cast<std::size_t>(s)] = {p, bytes_of(count, t)};
}

void Collectives::flush_staged(Collectives& x, int s) {
  Pending& q = x.pending_[static_cast<std::size_t>(s)];
  if (!q.device) return;
  x.mirrors_->to_device(q.device, q.bytes);
  q = Pending{};
}

void Collectives::note_none(Collectives&, int, CollKind, const CommFamily&, int, int, std::int64_t, MPI_Datatype, double, bool) {}

void Collectives::note_logged(Collectives& x, int s, CollKind k, const CommFamily& f, int c, int root, std::int64_t count,
                              MPI_Datatype t, double t0, bool completed) {
  const double t1 = now();
  const std::int64_t e = x.log_->add(k, f.id(), c, root, count * type_bytes(t), t0, t1);
  if (completed) x.log_->done(e, t1);
  else x.event_[static_cast<std::size_t>(s)] = e;
}

void Collectives::done_none(Collectives&, int) {}

void Collectives::done_logged(Collectives& x, int s) { x.log_->done(x.event_[static_cast<std::size_t>(s)], now()); }

void Collectives::wait_all_plain(Collectives& x) { MPI_Waitall(x.used_, x.req_.data(), MPI_STATUSES_IGNORE); }

// MPI_Waitsome: each operation gets its stamp when it is seen complete, in whatever order they
// complete (requests already waited for are null and ignored).
void Collectives::wait_all_logged(Collectives& x) {
  int done = 0;
  for (;;) {
    MPI_Waitsome(x.used_, x.req_.data(), &done, x.index_.data(), MPI_STATUSES_IGNORE);
    if (done == MPI_UNDEFINED) break;
    const double t = now();
    for (int k = 0; k < done; ++k) x.log_->done(x.event_[static_cast<std::size_t>(x.index_[static_cast<std::size_t>(k)])], t);
  }
}

int Collectives::slot(CollKind k, const CommFamily& f, int c, int root, std::int64_t count, MPI_Datatype t, double t0) {
  const int s = used_ - 1;  // the caller has filled req_[used_ - 1]
  note_(*this, s, k, f, c, root, count, t, t0, false);
  return s;
}

void Collectives::logged(CollKind k, const CommFamily& f, int c, int root, std::int64_t count, MPI_Datatype t, double t0) {
  note_(*this, -1, k, f, c, root, count, t, t0, true);
}

MPI_Request* Collectives::next() {
  if (used_ >= static_cast<int>(req_.size())) throw std::logic_error("Collectives: more requests in flight than planned");
  return &req_[static_cast<std::size_t>(used_++)];
}

// Staged, a rank's buffer is what MPI reads where it sends (the root of a broadcast, every rank's
// send buffer of a reduction) and what MPI writes where it receives (the other ranks of a
// broadcast, the root of a reduction, every rank of an allreduce).
int Collectives::ibcast(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  const bool sends = f.rank() == root;
  void* b = sends ? const_cast<void*>(in_(*this, buf, count, t)) : out_(*this, buf, count, t);
  MPI_Request* r = next();
  MPI_Ibcast(b, static_cast<int>(count), t, root, f[c], r);
  const int s = slot(CollKind::bcast, f, c, root, count, t, t0);
  if (!sends) later_(*this, s, buf, count, t);
  return s;
}

int Collectives::ireduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t,
                         int root) {
  const double t0 = stamp();
  const bool receives = f.rank() == root;
  const void* sb = in_(*this, send, count, t);
  void* rb = receives ? out_(*this, recv, count, t) : recv;
  MPI_Request* r = next();
  MPI_Ireduce(sb, rb, static_cast<int>(count), t, MPI_SUM, root, f[c], r);
  const int s = slot(CollKind::reduce, f, c, root, count, t, t0);
  if (receives) later_(*this, s, recv, count, t);
  return s;
}

int Collectives::iallreduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t) {
  const double t0 = stamp();
  const void* sb = in_(*this, send, count, t);
  void* rb = out_(*this, recv, count, t);
  MPI_Request* r = next();
  MPI_Iallreduce(sb, rb, static_cast<int>(count), t, MPI_SUM, f[c], r);
  const int s = slot(CollKind::allreduce, f, c, -1, count, t, t0);
  later_(*this, s, recv, count, t);
  return s;
}

int Collectives::isend(const CommFamily& f, int c, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  const void* b = in_(*this, buf, count, t);
  MPI_Request* r = next();
  MPI_Isend(b, static_cast<int>(count), t, peer, tag, f[c], r);
  return slot(CollKind::send, f, c, peer, count, t, t0);
}

int Collectives::irecv(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  void* b = out_(*this, buf, count, t);
  MPI_Request* r = next();
  MPI_Irecv(b, static_cast<int>(count), t, peer, tag, f[c], r);
  const int s = slot(CollKind::recv, f, c, peer, count, t, t0);
  later_(*this, s, buf, count, t);
  return s;
}

void Collectives::wait(int s) {
  MPI_Request& r = req_[static_cast<std::size_t>(s)];
  if (r == MPI_REQUEST_NULL) return;  // completed by an earlier wait: keep its stamp
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  done_(*this, s);
  flush_(*this, s);
}

void Collectives::wait_all() {
  wait_all_(*this);
  for (int s = 0; s < used_; ++s) flush_(*this, s);  // slots already flushed by wait() are empty
  used_ = 0;
}

void Collectives::bcast(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  const bool sends = f.rank() == root;
  void* b = sends ? const_cast<void*>(in_(*this, buf, count, t)) : out_(*this, buf, count, t);
  MPI_Bcast(b, static_cast<int>(count), t, root, f[0]);
  if (!sends) back_(*this, buf, count, t);
  logged(CollKind::bcast, f, 0, root, count, t, t0);
}

void Collectives::reduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  const bool receives = f.rank() == root;
  const void* sb = in_(*this, send, count, t);
  void* rb = receives ? out_(*this, recv, count, t) : recv;
  MPI_Reduce(sb, rb, static_cast<int>(count), t, MPI_SUM, root, f[0]);
  if (receives) back_(*this, recv, count, t);
  logged(CollKind::reduce, f, 0, root, count, t, t0);
}

void Collectives::allreduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t) {
  const double t0 = stamp();
  const void* sb = in_(*this, send, count, t);
  void* rb = out_(*this, recv, count, t);
  MPI_Allreduce(sb, rb, static_cast<int>(count), t, MPI_SUM, f[0]);
  back_(*this, recv, count, t);
  logged(CollKind::allreduce, f, 0, -1, count, t, t0);
}

void Collectives::send(const CommFamily& f, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Send(in_(*this, buf, count, t), static_cast<int>(count), t, peer, tag, f[0]);
  logged(CollKind::send, f, 0, peer, count, t, t0);
}

void Collectives::recv(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Recv(out_(*this, buf, count, t), static_cast<int>(count), t, peer, tag, f[0], MPI_STATUS_IGNORE);
  back_(*this, buf, count, t);
  logged(CollKind::recv, f, 0, peer, count, t, t0);
}

}  // namespace desync
