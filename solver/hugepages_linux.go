package solver

import (
	"syscall"
	"unsafe"
)

// hugePageBytes is the size of a transparent huge page on the machines the
// solver runs on (x86-64 and arm64 with 4 KiB base pages).
const hugePageBytes = 2 << 20

// adviseHugePages asks the kernel to back the table's buckets with
// transparent huge pages. Every probe of a large table lands on a random
// bucket, so with 4 KiB pages almost every probe also misses the
// processor's TLB and walks the page tables; with 2 MiB pages a 1 GiB
// table needs 512 TLB entries instead of 262,144. Kernels that give huge
// pages only where asked (a common default) give them only to memory
// advised so. It is advice: a kernel without huge pages ignores it, and
// the table works the same. Tables smaller than a huge page are left
// alone.
func adviseHugePages(b []bucket) {
	n := uintptr(len(b)) * unsafe.Sizeof(bucket{})
	if n < hugePageBytes {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	// madvise wants a page-aligned start; the runtime's large allocations
	// are, but round up so that the call never fails for that reason.
	const page = 4096
	off := (page - uintptr(p)%page) % page
	mem := unsafe.Slice((*byte)(unsafe.Add(p, off)), n-off)
	_ = syscall.Madvise(mem, syscall.MADV_HUGEPAGE) // advice only
}
