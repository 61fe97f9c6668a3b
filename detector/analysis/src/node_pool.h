// node_pool.h: memory for the nodes of node-based containers (std::map,
// std::set) that are filled and emptied all the time, as the provenance
// replay's buffer maps are: nodes come from big blocks and freed nodes are
// reused, so inserting and erasing costs no malloc/free (they were a tenth
// of the detector's time). Freed only when the pool goes.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace cz::detect::detail {

class NodePool {
public:
  NodePool() = default;
  NodePool(const NodePool &) = delete;
  NodePool &operator=(const NodePool &) = delete;

  // Nodes of one size (the first size asked for); other sizes are passed
  // to operator new (a container allocates only its node type this way).
  void *take(size_t bytes) {
    if (size_ == 0) size_ = roundUp(bytes);
    if (roundUp(bytes) != size_) return ::operator new(bytes);
    if (free_) {
      Free *f = free_;
      free_ = f->next;
      return f;
    }
    if (left_ == 0) {
      blocks_.push_back(std::make_unique<std::byte[]>(size_ * kPerBlock));
      next_ = blocks_.back().get();
      left_ = kPerBlock;
    }
    void *p = next_;
    next_ += size_;
    left_--;
    return p;
  }
  void give(void *p, size_t bytes) {
    if (roundUp(bytes) != size_) return ::operator delete(p);
    free_ = new (p) Free{free_};
  }

private:
  struct Free {
    Free *next;
  };
  static constexpr size_t kPerBlock = 4096;
  static size_t roundUp(size_t b) {
    size_t a = alignof(std::max_align_t);
    b = b < sizeof(Free) ? sizeof(Free) : b;
    return (b + a - 1) / a * a;
  }
  size_t size_ = 0, left_ = 0;
  std::byte *next_ = nullptr;
  Free *free_ = nullptr;
  std::vector<std::unique_ptr<std::byte[]>> blocks_;
};

// The allocator a container is given: single nodes from the pool, arrays
// (which node containers do not ask for) from operator new.
template <class T>
struct PoolAllocator {
  using value_type = T;
  NodePool *pool;
  explicit PoolAllocator(NodePool &p) : pool(&p) {}
  template <class U>
  PoolAllocator(const PoolAllocator<U> &o) : pool(o.pool) {}
  T *allocate(size_t n) {
    return static_cast<T *>(n == 1 ? pool->take(sizeof(T)) : ::operator new(n * sizeof(T)));
  }
  void deallocate(T *p, size_t n) {
    if (n == 1) pool->give(p, sizeof(T));
    else ::operator delete(p);
  }
  template <class U>
  bool operator==(const PoolAllocator<U> &o) const { return pool == o.pool; }
  template <class U>
  bool operator!=(const PoolAllocator<U> &o) const { return pool != o.pool; }
};

} // namespace cz::detect::detail
