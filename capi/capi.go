// Command capi is the C ABI of the patience environments: built with
//
//	go build -buildmode=c-shared -o libpatience.so ./capi
//
// it gives C callers (the Python package patience_gym, through ctypes) the
// six games as vectors of environments (env.Vector; one environment is a
// vector of one). The caller owns every buffer: it passes pointers to its
// own memory and Go writes the observations, masks, rewards and flags
// straight into them during the call, keeping none of those pointers
// afterwards. No Go pointer is handed to C.
//
// Every function returns a status: 0 or more on success, and on failure one
// of the negative codes below; the message of the last failure on a handle is
// read with pg_error. Nothing a caller passes crashes the process except
// pointers to memory too small for what the documented sizes say (C cannot
// check those): an unknown game, a bad option, an illegal action, a wrong
// length and a closed handle come back as codes, and so does a Go panic (a
// bug) in any function here or in any goroutine it starts (the vector's
// workers): PG_INTERNAL, with the panic and its stack as the message. The
// handle on which it happened is then broken: every call that steps,
// samples or asks agents returns PG_BROKEN until pg_reset succeeds. Environments are named by integer handles (from pg_create),
// never by pointers. A handle must not be used by two threads at once: a
// second concurrent call returns PG_BUSY instead of racing. The C header
// written next to the library by go build declares the functions and the
// pg_buffers struct.
package main

/*
#include <stdint.h>

// pg_buffers points at the caller's result buffers; a null pointer means
// "do not write this one" (N environments, L = obs_len, A = actions,
// H = one_hot_len from the spec):
typedef struct {
	uint8_t *obs;           // N*L observation bytes
	uint8_t *mask;          // N*A bytes: 1 legal, 0 not. Kept up to date,
	                        // not rewritten: pg_step writes only the bytes
	                        // whose action changed since Go last wrote that
	                        // row at that address, so do not write into it,
	                        // and after reusing the memory for anything else
	                        // give it back only to pg_reset (which rewrites
	                        // every byte)
	double  *rewards;       // N
	uint8_t *terminated;    // N (0/1)
	uint8_t *truncated;     // N (0/1)
	uint8_t *final_obs;     // N*L, same-step mode: the ended episodes' last observations
	uint8_t *has_final;     // N (0/1): final_obs[i] is set
	uint8_t *illegal;       // N (0/1): the action was refused (illegal = "noop")
	float   *one_hot;       // N*H one-hot observations
	float   *final_one_hot; // N*H one-hot final observations
	uint8_t *mask_bits;     // N*P bytes, P = (A+7)/8: the masks bit-packed,
	                        // action a of environment i is bit a%8 (least
	                        // significant first) of byte i*P + a/8
	uint64_t *mask_words;   // N*W words, W = (A+63)/64: action a of
	                        // environment i is bit a%64 of word i*W + a/64
	                        // (on a little-endian machine the first P bytes
	                        // of each row are the row of mask_bits)
} pg_buffers;

// The status codes.
enum {
	PG_OK = 0,
	PG_ERROR = -1,      // see pg_error
	PG_BAD_HANDLE = -2, // unknown or closed handle
	PG_ILLEGAL = -3,    // an illegal action was refused (see pg_error)
	PG_BUSY = -4,       // the handle is in use by another thread
	PG_INTERNAL = -5,   // a Go panic (a bug) was recovered (see pg_error)
	PG_BROKEN = -6,     // an earlier PG_INTERNAL broke the handle: pg_reset it
};
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/memlimit"
	"github.com/patience-gym/patience/render"
)

// The status codes, as Go constants.
const (
	codeOK        = 0
	codeError     = -1
	codeBadHandle = -2
	codeIllegal   = -3
	codeBusy      = -4
	codeInternal  = -5
	codeBroken    = -6
)

// Flags returned by pg_step1.
const (
	flagTerminated = 1
	flagTruncated  = 2
	flagIllegal    = 4
)

func main() {}

// status turns an error into a code and records its message on h.
func status(h *handle, err error) C.int64_t {
	if err == nil {
		return codeOK
	}
	h.lastErr = err.Error()
	var ill *env.IllegalActionError
	var pe *env.PanicError
	switch {
	case errors.As(err, &pe):
		h.broken = true
		return codeInternal
	case errors.Is(err, env.ErrBroken) || errors.Is(err, errBroken):
		return codeBroken
	case errors.As(err, &ill) && ill.Action >= 0 && ill.Action < h.v.Spec().Actions:
		return codeIllegal
	}
	return codeError
}

// errBroken is the error of a call on a handle broken by a panic outside
// the vector.
var errBroken = errors.New("the environment is broken by an internal error in an earlier call: call reset")

// usable returns errBroken if an earlier panic broke h.
func (h *handle) usable() error {
	if h.broken {
		return fmt.Errorf("%w (the error: %s)", errBroken, firstLine(h.lastErr))
	}
	return nil
}

// gostr copies a C string, nil giving "".
func gostr(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// putString copies s into the caller's buffer out of capacity cap (with a
// terminating NUL when it fits) and returns len(s): a caller whose buffer
// was too small calls again with len(s)+1 bytes.
func putString(s string, out *C.char, cap C.int64_t) C.int64_t {
	if out != nil && cap > 0 {
		dst := unsafe.Slice((*byte)(unsafe.Pointer(out)), int(cap))
		n := copy(dst[:len(dst)-1], s)
		dst[n] = 0
	}
	return C.int64_t(len(s))
}

// guard recovers a panic of a call that takes no handle (a bug) into err
// (capacity errcap) and sets *code to PG_INTERNAL; those calls defer it.
func guard(code *C.int64_t, err *C.char, errcap C.int64_t) {
	if r := recover(); r != nil {
		putString(panicMessage(r), err, errcap)
		*code = codeInternal
	}
}

// fail writes e's message into err (capacity errcap) and returns PG_ERROR:
// how a call that takes no handle reports a failure.
func fail(e error, err *C.char, errcap C.int64_t) C.int64_t {
	putString(e.Error(), err, errcap)
	return codeError
}

// pg_specs writes the JSON array of every game's spec into out (capacity
// cap) and returns its length (call again with a larger buffer if it is
// not less than cap).
//
//export pg_specs
func pg_specs(out *C.char, cap C.int64_t) (code C.int64_t) {
	defer guard(&code, out, cap)
	return putString(specsJSON(), out, cap)
}

// pg_create makes a vector of n environments of the named game with the
// options given as a JSON object (see Options; NULL or "" for the defaults)
// and returns its handle (> 0). On failure it returns PG_ERROR and writes
// the message into err (capacity errcap).
//
//export pg_create
func pg_create(game *C.char, n C.int64_t, options *C.char, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	id, e := create(gostr(game), int64(n), gostr(options))
	if e != nil {
		return fail(e, err, errcap)
	}
	return C.int64_t(id)
}

// pg_vector_bytes returns the bytes pg_create allocates in Go for a vector
// of n environments of game with the options (JSON, as pg_create's), after
// checking that they and extra bytes the caller allocates for it (its
// buffers) fit in the memory available: the least of MemAvailable, the
// cgroup's limit, the address-space limit and GOMEMLIMIT. A vector too
// large returns PG_ERROR with a message naming the bytes and the limit, and
// allocates nothing. pg_create makes the same check (with extra 0).
//
//export pg_vector_bytes
func pg_vector_bytes(game *C.char, n C.int64_t, options *C.char, extra C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	if extra < 0 {
		return fail(fmt.Errorf("extra bytes %d is negative", extra), err, errcap)
	}
	need, e := vectorBytes(gostr(game), int64(n), gostr(options), uint64(extra))
	if e != nil {
		return fail(e, err, errcap)
	}
	return C.int64_t(min(need, math.MaxInt64))
}

// pg_memory_check checks that need bytes, which the caller is about to
// allocate for what (a name for the message), fit in the memory available
// (as pg_vector_bytes): PG_OK, or PG_ERROR with a message naming the bytes
// and the limit.
//
//export pg_memory_check
func pg_memory_check(what *C.char, need C.int64_t, err *C.char, errcap C.int64_t) (code C.int64_t) {
	defer guard(&code, err, errcap)
	if need < 0 {
		return fail(fmt.Errorf("%s: %d bytes", gostr(what), need), err, errcap)
	}
	if e := memlimit.Check(gostr(what), uint64(need)); e != nil {
		return fail(e, err, errcap)
	}
	return codeOK
}

// pg_close closes a handle; the handle is invalid afterwards. Closing an
// unknown or closed handle returns PG_BAD_HANDLE.
//
//export pg_close
func pg_close(id C.int64_t) (code C.int64_t) {
	defer func() {
		if r := recover(); r != nil {
			code = codeInternal
		}
	}()
	if !closeHandle(int64(id)) {
		return codeBadHandle
	}
	return codeOK
}

// pg_error copies the message of the last failure on a handle into out and
// returns its length.
//
//export pg_error
func pg_error(id C.int64_t, out *C.char, cap C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t { return putString(h.lastErr, out, cap) })
}

// buffers views the caller's buffers as Go slices for n environments.
func buffers(b *C.pg_buffers, v *env.Vector) env.VectorBuffers {
	if b == nil {
		return env.VectorBuffers{}
	}
	n, l, a, oh := v.Len(), v.Spec().ObsLen, v.Spec().Actions, v.OneHotLen()
	return env.VectorBuffers{
		Obs:         view((*uint8)(b.obs), n*l),
		MaskWords:   view((*uint64)(unsafe.Pointer(b.mask_words)), n*((a+63)/64)),
		MaskBytes:   view((*uint8)(b.mask), n*a),
		Rewards:     view((*float64)(b.rewards), n),
		Terminated:  view((*bool)(unsafe.Pointer(b.terminated)), n),
		Truncated:   view((*bool)(unsafe.Pointer(b.truncated)), n),
		FinalObs:    view((*uint8)(b.final_obs), n*l),
		HasFinal:    view((*bool)(unsafe.Pointer(b.has_final)), n),
		Illegal:     view((*bool)(unsafe.Pointer(b.illegal)), n),
		OneHot:      view((*float32)(b.one_hot), n*oh),
		FinalOneHot: view((*float32)(b.final_one_hot), n*oh),
		MaskPacked:  view((*uint8)(b.mask_bits), n*((a+7)/8)),
	}
}

// view is the slice of n elements at p (memory Go does not manage), or nil.
func view[T any](p *T, n int) []T {
	if p == nil {
		return nil
	}
	return unsafe.Slice(p, n)
}

// pg_reset deals seeds[i] to environment i (n seeds, n the vector's size)
// and writes the first observations and masks into the buffers; rewards and
// flags are zeroed. A deal with no legal move is skipped by steps of n (see
// pg_deals for the deals dealt). A successful reset mends a broken handle.
//
//export pg_reset
func pg_reset(id C.int64_t, seeds *C.uint64_t, n C.int64_t, bufs *C.pg_buffers) C.int64_t {
	return onArray(id, "seeds", unsafe.Pointer(seeds), n, func(h *handle) C.int64_t {
		s := unsafe.Slice((*uint64)(unsafe.Pointer(seeds)), int(n))
		if err := h.withBuffers(buffers(bufs, h.v), func() error { return h.v.ResetSeeds(s) }); err != nil {
			return status(h, err)
		}
		h.broken = false
		return codeOK
	})
}

// pg_step plays actions[i] (n actions, int64) in environment i and writes
// the results into the buffers. An illegal action (with the default
// illegal = "refuse") refuses the whole step, changes nothing and returns
// PG_ILLEGAL; an action id outside the action space returns PG_ERROR.
//
//export pg_step
func pg_step(id C.int64_t, actions *C.int64_t, n C.int64_t, bufs *C.pg_buffers) C.int64_t {
	return onLive(id, "actions", unsafe.Pointer(actions), n, func(h *handle) C.int64_t {
		for i, a := range unsafe.Slice((*int64)(unsafe.Pointer(actions)), int(n)) {
			h.actions[i] = int(a)
		}
		return status(h, h.withBuffers(buffers(bufs, h.v), func() error { return h.v.Step(h.actions) }))
	})
}

// pg_bind1 gives a vector of one environment the rows pg_step1 writes into,
// so that each step is the cheapest possible call from Python: rows
// observation rows of obs_len bytes at obs (or of one_hot_len floats at
// one_hot; either may be NULL), rows mask rows of actions bytes at mask, and
// the reward at *reward. The memory must stay valid until the next pg_bind1
// or pg_close; Go keeps these C pointers (cgo allows C pointers in Go
// memory) and nothing else.
//
//export pg_bind1
func pg_bind1(id C.int64_t, obs *C.uint8_t, mask *C.uint8_t, oneHot *C.float, reward *C.double, rows C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		if h.v.Len() != 1 {
			return status(h, errors.New("pg_bind1 binds a vector of one environment only"))
		}
		if rows < 0 {
			return status(h, fmt.Errorf("%d rows", rows))
		}
		h.rows = bound{obs: obs, mask: mask, oneHot: oneHot, reward: reward, n: int(rows)}
		return codeOK
	})
}

// bound are the rows given by pg_bind1.
type bound struct {
	obs    *C.uint8_t
	mask   *C.uint8_t
	oneHot *C.float
	reward *C.double
	n      int
}

// at returns p advanced by i elements of size, or nil if p is nil.
func at[T any](p *T, i, size int) *T {
	if p == nil {
		return nil
	}
	return (*T)(unsafe.Add(unsafe.Pointer(p), i*size))
}

// pg_step1 steps a vector of one environment bound by pg_bind1, writing
// into row `row` of the bound rows: the observation (or its one-hot form),
// the mask bytes, and the reward into the bound reward. It returns the flags
// terminated (1), truncated (2) and illegal (4: the action was refused under
// illegal = "noop"), or a negative code.
//
//export pg_step1
func pg_step1(id C.int64_t, action C.int64_t, row C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		v, r := h.v, &h.rows
		if v.Len() != 1 || row < 0 || int(row) >= r.n {
			return status(h, fmt.Errorf("pg_step1: row %d of %d bound rows (call pg_bind1 first)", row, r.n))
		}
		if err := h.usable(); err != nil {
			return status(h, err)
		}
		i := int(row)
		l, a, oh := v.Spec().ObsLen, v.Spec().Actions, v.OneHotLen()
		b := env.VectorBuffers{
			Obs:       view((*uint8)(at(r.obs, i, l)), l),
			MaskBytes: view((*uint8)(at(r.mask, i, a)), a),
			OneHot:    view((*float32)(at(r.oneHot, i, 4*oh)), oh),
		}
		h.actions[0] = int(action)
		if err := h.withBuffers(b, func() error { return v.Step(h.actions) }); err != nil {
			return status(h, err)
		}
		if r.reward != nil {
			*r.reward = C.double(v.Rewards[0])
		}
		var flags C.int64_t
		if v.Terminated[0] {
			flags |= flagTerminated
		}
		if v.Truncated[0] {
			flags |= flagTruncated
		}
		if v.Illegal[0] {
			flags |= flagIllegal
		}
		return flags
	})
}

// pg_sample draws a uniformly random legal action of every environment
// into actions (n int64 values), in the vector's workers, each environment
// from its own generator (seeded by pg_reset from the deal it gives that
// environment, so the draws follow from the seeds and do not depend on the
// number of workers); an environment waiting for its next-step autoreset
// gets -1, which pg_step ignores there. The environments are not changed.
//
//export pg_sample
func pg_sample(id C.int64_t, actions *C.int64_t, n C.int64_t) C.int64_t {
	return onLive(id, "actions", unsafe.Pointer(actions), n, func(h *handle) C.int64_t {
		if err := h.v.SampleActions(h.actions); err != nil {
			return status(h, err)
		}
		for i, a := range h.actions {
			*at(actions, i, 8) = C.int64_t(a)
		}
		return codeOK
	})
}

// pg_deals writes the deal of each environment's current episode into out
// (n values).
//
//export pg_deals
func pg_deals(id C.int64_t, out *C.uint64_t, n C.int64_t) C.int64_t {
	return onArray(id, "deals", unsafe.Pointer(out), n, func(h *handle) C.int64_t {
		copy(unsafe.Slice((*uint64)(unsafe.Pointer(out)), int(n)), h.v.Seeds())
		return codeOK
	})
}

// pg_episode writes environment i's episode so far as numbers, the cheap
// form of pg_info: out[0..5] = deal, steps, progress, cards, legal actions,
// outcome (0 running, 1 won, 2 lost, 3 truncated), *ret = the return; the
// game's class word goes into class (capacity cap) and its length is
// returned.
//
//export pg_episode
func pg_episode(id C.int64_t, i C.int64_t, out *C.int64_t, ret *C.double, class *C.char, cap C.int64_t) C.int64_t {
	return onEnv(id, i, func(h *handle, e *env.Env) C.int64_t {
		if out == nil || ret == nil {
			return status(h, errors.New("pg_episode: null output"))
		}
		in := h.v.Info(int(i))
		dst := unsafe.Slice((*int64)(unsafe.Pointer(out)), 6)
		dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = int64(in.Seed), int64(in.Steps), int64(in.Progress), int64(in.Cards), int64(in.Legal), int64(in.Outcome)
		*ret = C.double(e.Return())
		return putString(in.Class, class, cap)
	})
}

// pg_render writes environment i's text picture into out and returns its
// length.
//
//export pg_render
func pg_render(id C.int64_t, i C.int64_t, out *C.char, cap C.int64_t) C.int64_t {
	return onEnv(id, i, func(_ *handle, e *env.Env) C.int64_t { return putString(e.Render(), out, cap) })
}

// pg_render_rgb draws environment i's table as an H×W×3 RGB image into
// out (cap bytes, at least H*W*3) and writes the image's height and width
// into size[0] and size[1]. With out null it only writes the size, which is
// fixed per game. The image is the same for the same state, and shows only
// what the observation shows.
//
//export pg_render_rgb
func pg_render_rgb(id C.int64_t, i C.int64_t, out *C.uint8_t, cap C.int64_t, size *C.int64_t) C.int64_t {
	return onEnv(id, i, func(h *handle, e *env.Env) C.int64_t {
		if h.canvas == nil {
			c, err := render.NewGameCanvas(h.v.Spec().Name, render.Options{})
			if err != nil {
				return status(h, err)
			}
			h.canvas = c
		}
		w, ht := h.canvas.Size()
		if size != nil {
			dst := unsafe.Slice((*int64)(unsafe.Pointer(size)), 2)
			dst[0], dst[1] = int64(ht), int64(w)
		}
		if out == nil {
			return codeOK
		}
		if int(cap) < w*ht*3 {
			return status(h, fmt.Errorf("pg_render_rgb: the buffer holds %d bytes, the %d×%d image needs %d", cap, ht, w, w*ht*3))
		}
		return status(h, h.canvas.EnvRGB(e, view((*uint8)(unsafe.Pointer(out)), w*ht*3)))
	})
}

// pg_action_name writes the name of action a into out and returns its
// length.
//
//export pg_action_name
func pg_action_name(id C.int64_t, a C.int64_t, out *C.char, cap C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		if a < 0 || int(a) >= h.v.Spec().Actions {
			return status(h, actionRangeError(h.v.Spec(), int64(a)))
		}
		return putString(h.v.Env(0).ActionString(int(a)), out, cap)
	})
}

// pg_parse_move reads a move as a person types it ("7>12") into its action
// ids, writes at most cap of them into ids and returns how many there are.
//
//export pg_parse_move
func pg_parse_move(id C.int64_t, move *C.char, ids *C.int64_t, cap C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		got, err := h.v.Env(0).ParseMove(gostr(move))
		if err != nil {
			return status(h, err)
		}
		if ids != nil && cap > 0 {
			dst := unsafe.Slice((*int64)(unsafe.Pointer(ids)), int(cap))
			for k := 0; k < len(got) && k < len(dst); k++ {
				dst[k] = int64(got[k])
			}
		}
		return C.int64_t(len(got))
	})
}

// release recovers a panic of the call (recording it as the handle's
// error, marking the handle broken and setting *code to PG_INTERNAL) and
// unlocks the handle. Deferred by every call that acquired a handle.
func (h *handle) release(code *C.int64_t) {
	if r := recover(); r != nil {
		h.lastErr = panicMessage(r)
		h.broken = true
		*code = codeInternal
	}
	h.mu.Unlock()
}

// acquire finds and locks a handle; on failure it returns nil and the code.
func acquire(id int64) (*handle, C.int64_t) {
	h := lookup(id)
	if h == nil {
		return nil, codeBadHandle
	}
	if !h.mu.TryLock() {
		return nil, codeBusy
	}
	if h.closed {
		h.mu.Unlock()
		return nil, codeBadHandle
	}
	return h, codeOK
}

// onHandle runs f on handle id, locked for the call, and returns its code:
// PG_BAD_HANDLE or PG_BUSY without running f when the handle is unknown,
// closed or in use (acquire), PG_INTERNAL when f panics (release). Every
// call that takes a handle goes through it.
func onHandle(id C.int64_t, f func(h *handle) C.int64_t) (code C.int64_t) {
	h, code := acquire(int64(id))
	if h == nil {
		return code
	}
	defer h.release(&code)
	return f(h)
}

// onArray is onHandle for a call given an array of n values at p, one per
// environment: a null p or a wrong n is PG_ERROR, what naming the values in
// the message.
func onArray(id C.int64_t, what string, p unsafe.Pointer, n C.int64_t, f func(h *handle) C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		if int(n) != h.v.Len() || p == nil {
			return status(h, lengthError(what, int(n), h.v.Len()))
		}
		return f(h)
	})
}

// onLive is onArray for the calls that step, sample or ask agents: they
// also refuse a handle an earlier panic broke (PG_BROKEN, see usable).
func onLive(id C.int64_t, what string, p unsafe.Pointer, n C.int64_t, f func(h *handle) C.int64_t) C.int64_t {
	return onArray(id, what, p, n, func(h *handle) C.int64_t {
		if err := h.usable(); err != nil {
			return status(h, err)
		}
		return f(h)
	})
}

// onEnv is onHandle for a call about environment i of the vector: an index
// out of range is PG_ERROR.
func onEnv(id, i C.int64_t, f func(h *handle, e *env.Env) C.int64_t) C.int64_t {
	return onHandle(id, func(h *handle) C.int64_t {
		if err := h.checkIndex(int(i)); err != nil {
			return status(h, err)
		}
		return f(h, h.v.Env(int(i)))
	})
}
