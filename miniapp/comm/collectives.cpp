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

Collectives::Collectives(int max_requests, std::shared_ptr<CollectiveLog> log)
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

int Collectives::ibcast(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  MPI_Request* r = next();
  MPI_Ibcast(buf, static_cast<int>(count), t, root, f[c], r);
  return slot(CollKind::bcast, f, c, root, count, t, t0);
}

int Collectives::ireduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t,
                         int root) {
  const double t0 = stamp();
  MPI_Request* r = next();
  MPI_Ireduce(send, recv, static_cast<int>(count), t, MPI_SUM, root, f[c], r);
  return slot(CollKind::reduce, f, c, root, count, t, t0);
}

int Collectives::iallreduce(const CommFamily& f, int c, const void* send, void* recv, std::int64_t count, MPI_Datatype t) {
  const double t0 = stamp();
  MPI_Request* r = next();
  MPI_Iallreduce(send, recv, static_cast<int>(count), t, MPI_SUM, f[c], r);
  return slot(CollKind::allreduce, f, c, -1, count, t, t0);
}

int Collectives::isend(const CommFamily& f, int c, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Request* r = next();
  MPI_Isend(buf, static_cast<int>(count), t, peer, tag, f[c], r);
  return slot(CollKind::send, f, c, peer, count, t, t0);
}

int Collectives::irecv(const CommFamily& f, int c, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Request* r = next();
  MPI_Irecv(buf, static_cast<int>(count), t, peer, tag, f[c], r);
  return slot(CollKind::recv, f, c, peer, count, t, t0);
}

void Collectives::wait(int s) {
  MPI_Request& r = req_[static_cast<std::size_t>(s)];
  if (r == MPI_REQUEST_NULL) return;  // completed by an earlier wait: keep its stamp
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  done_(*this, s);
}

void Collectives::wait_all() {
  wait_all_(*this);
  used_ = 0;
}

void Collectives::bcast(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  MPI_Bcast(buf, static_cast<int>(count), t, root, f[0]);
  logged(CollKind::bcast, f, 0, root, count, t, t0);
}

void Collectives::reduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t, int root) {
  const double t0 = stamp();
  MPI_Reduce(send, recv, static_cast<int>(count), t, MPI_SUM, root, f[0]);
  logged(CollKind::reduce, f, 0, root, count, t, t0);
}

void Collectives::allreduce(const CommFamily& f, const void* send, void* recv, std::int64_t count, MPI_Datatype t) {
  const double t0 = stamp();
  MPI_Allreduce(send, recv, static_cast<int>(count), t, MPI_SUM, f[0]);
  logged(CollKind::allreduce, f, 0, -1, count, t, t0);
}

void Collectives::send(const CommFamily& f, const void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Send(buf, static_cast<int>(count), t, peer, tag, f[0]);
  logged(CollKind::send, f, 0, peer, count, t, t0);
}

void Collectives::recv(const CommFamily& f, void* buf, std::int64_t count, MPI_Datatype t, int peer, int tag) {
  const double t0 = stamp();
  MPI_Recv(buf, static_cast<int>(count), t, peer, tag, f[0], MPI_STATUS_IGNORE);
  logged(CollKind::recv, f, 0, peer, count, t, t0);
}

}  // namespace desync
