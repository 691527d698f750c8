/*
 * The delivery protocol of `Output` as a Promela model, checked exhaustively by spin, in two configurations that share
 * the latch and the lock (the whole would be too large to search): `Scripts/check-latch-model.sh` runs every check
 * below. By hand, in a scratch directory:
 *
 *   spin -a DeliveryLatch.pml && gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c && ./pan -m100000   # safety
 *   spin -a DeliveryLatch.pml && gcc -O2 -o pan pan.c && ./pan -a -m100000 -N terminates    # every run ends
 *   spin -DLANE -a DeliveryLatch.pml && ...            # the same checks of the LANE configuration
 *   spin -DSEEDED_BUG=1 -a DeliveryLatch.pml && ...    # a seeded bug: the safety run must report errors
 *
 * The default configuration: every interleaving of two senders (two events each), one thread that subscribes and
 * cancels two entries in turn, and the deinit of a responder whose entry is subscribed from the start, beside a
 * token-owned entry subscribed throughout; every entry is delivered immediately.
 *
 * The LANE configuration (-DLANE): every interleaving of one sender (two events), another thread that cancels two
 * entries (either one first), and a queue's lane whose block delivers on its own thread, over five token-owned
 * entries subscribed from the start, in this order: H, whose handler, on its first event, sends two events and cancels
 * V, and on its second cancels itself; V; W, cancelled from the other thread; Q, delivered on a queue through the lane,
 * cancelled from the other thread; P, never cancelled. A list there is a buffer of slots (`ContiguousArray<Entry?>`
 * storage), so a change writes a slot of one buffer, compaction makes a new one, and the lane's block reads the slot
 * its item's offsets name in the buffer the item keeps. SENDERS=2 adds a second sender: tens of millions of states,
 * more than 2 GB; the script does not run it.
 *
 * What the model's state stands for, in both:
 *   word, WORK_QUEUED,        `DeliveryLatch.word` and its flags `DeliveryLatch.workQueued` and
 *   CHANGING_ENTRIES          `DeliveryLatch.changingEntries` (DeliveryLatch.swift). A thread's bits are its number
 *                             times 4 here, its `pthread_t` there; both leave the two flag bits free.
 *   lockOwner                 the output's lock, `DeliveryStorage.state`, whose `LockedState.withLock`
 *                             (Internal/LockedState.swift) takes a mutex that is not reentrant, so a thread that takes
 *                             it twice blocks for ever (an invalid end state here).
 *   backlogEvents             `DeliveryStateMachine.Backlog.events` (DeliveryStateMachine.swift): the events queued
 *                             for the thread that holds the delivery.
 *   isRemoved                 `Entry.isRemoved` (Entry.swift), one bit an entry.
 *   isLockFree                the argument of `DeliveryStorage.deliver(_:holder:isLockFree:)`
 *                             (DeliveryStorage+Sending.swift): the sender claimed with no lock, and lets go with
 *                             none if the round leaves nothing to do.
 * In the default configuration:
 *   entries                   the round's list, `RoundList.List.entries` (RoundList.swift), written only
 *                             through `RoundList.change(_:)` and `RoundList.install(_:)` (`change` and `install`
 *                             here). A list is a set of entries: slots keep subscription order, which no property here
 *                             depends on.
 *   elements                  `RoundList.List.elements`, the view of `entries` that a round reads.
 *   changedEntries,           `SubscriberList.changedEntries` (SubscriberList.swift), and whether it is not `nil`.
 *   hasChangedEntries
 *   responderAlive            whether the responder entry's weak reference, `ResponderEntry.responder`, reads non-nil.
 *   dead                      whether `RoundList.Contents.dead` holds the responder's entry: `RoundList.markDead(_:_:)`
 *                             adds it, `RoundList.endRound(_:)` hands it over.
 *   deadFound                 the round loop's `deadFound` (DeliveryStorage+Sending.swift).
 * In the LANE configuration:
 *   slots, arrayCount, refs   list buffers: each slot an entry or `nil`, the array's count, and how many of the lane's
 *                             waiting items and its block reference the buffer. A buffer nobody references is cleared
 *                             (freed).
 *   entries, isShared         `RoundList.List.entries` and `RoundList.Contents.isShared` (RoundList.swift).
 *   elements                  `RoundList.List.elements`: the buffer the running round reads.
 *   changedEntries            `SubscriberList.changedEntries`.
 *   slot, count               `Entry.slot`, `SubscriberList.count`.
 *   skipped                   `RoundList.Contents.skipped`, one bit an entry.
 *   offsets, lanesAreStale    `RoundList.LanePlan.offsets` of the lane's plan (its one entry, Q, so one offset), and
 *                             `RoundList.Contents.lanesAreStale`, which every `change` and `install` sets.
 *   laneBuffer                the lane's waiting events, a `LaneBuffer` (Lanes/LaneBuffer.swift): each an event with
 *                             its `LaneBuffer.Item`, the round's buffer (`LaneBuffer.Item.entries`) and Q's offset in
 *                             it (`LaneBuffer.Item.offsets`).
 *   qCancelled                Q's `QueuedEntry.cancelled` (Lanes/Output.QueuedEntry.swift), which
 *                             `QueuedEntry.close()` sets.
 *
 * What each step stands for (type, function, file):
 *   Sender                    `Output.send` (Output.swift). Lock-free: `DeliveryStorage.claimWithNoLock(for:)` ->
 *                             `DeliveryLatch.tryClaim(for:)`, then `DeliveryStorage.deliver(_:holder:isLockFree:)`
 *                             (`deliver` here, written out in LANE's Sender): the round, then
 *                             `DeliveryLatch.tryRelease(_:)`; if that fails or the round found a dead responder,
 *                             `DeliveryStorage.finishRounds(after:holder:)` and the next round, until the machine says
 *                             to release. Locked, after a failed claim:
 *                             `DeliveryStorage.sendWithLock(_:from:)`: `DeliveryLatch.claimOrMarkWorkQueued(for:)`,
 *                             then `DeliveryStateMachine.send(_:claimed:)`, which returns `SendAction.deliver` or
 *                             appends the event to `Backlog.events`.
 *   takeIdleOrMarkWorkQueued  `DeliveryLatch.takeIdleOrMarkWorkQueued(settingTo:)`, the compare-and-swap loop behind
 *                             `claimOrMarkWorkQueued(for:)` and `beginChangingEntries()`.
 *   deliverRound              the round loop of `DeliveryStorage.deliver(_:holder:isLockFree:)` and its step for each
 *                             entry, `DeliveryStorage.deliver(_:to:at:in:holder:deadFound:lanesLeft:)`: an entry in
 *                             `skipped` (`RoundList.isSkipped(_:_:)`) is passed over; a responder entry whose responder
 *                             is gone (`EventEntry.deliver(_:)` returns false) goes to `dead` (`RoundList.markDead`),
 *                             and the round sets `deadFound`. LANE: the round begins with `RoundList.beginRound(_:)`,
 *                             which finds the lanes again (`RoundList.findLanes()`) if the list changed; the first
 *                             entry of a lane that the round reaches offers the lane the event
 *                             (`RoundList.takesInline(_:at:of:lanesLeft:_:)` -> `offer`), and the lane's other entries
 *                             are passed over (here the lane has one entry, Q).
 *   finishRound               `DeliveryStorage.finishRound(deadFound:holder:_:)` under the lock:
 *                             `RoundList.install(_:)` of the changed list, `RoundList.endRound(_:)` (forget the skipped
 *                             entries, hand over the dead ones) and `SubscriberList.removeDead(_:from:)` of those
 *                             through `RoundList.change(_:)` (`installAndRemoveDead` here), then
 *                             `DeliveryStateMachine.finishRound()` (pop a queued event, or say to release) and
 *                             `DeliveryLatch.settle(_:keeping:)` (`settle` here: keep the delivery for that event, or
 *                             let it go).
 *   Subscriber                `DeliveryStorage.add(_:at:)` -> `SubscriberList.add(_:at:to:)`, then
 *                             `SubscriptionHandle.cancel` -> `Output.remove` -> `DeliveryStorage.remove(_:from:)` ->
 *                             `SubscriberList.remove(_:from:)`. Both change the list in
 *                             `DeliveryStorage.changeEntries(_:_:)`: in place through `RoundList.change(_:)`, between
 *                             `DeliveryLatch.beginChangingEntries()` and `endChangingEntries()`, when nobody holds the
 *                             delivery, else on `SubscriberList.changedEntries`, work marked queued for the holder.
 *   ResponderDeinit           the responder's `deinit` begins: its weak reference reads `nil` from then on.
 *   sendFromHandler (LANE)    `Output.send` from H's handler, on the thread that holds the delivery: the claim fails
 *                             and `DeliveryStorage.sendWithLock(_:from:)` queues the event (G3).
 *   cancel (LANE)             `HandlerEntry.cancel()`, or Q's `QueuedEntry.cancel()`:
 *                             `DeliveryStorage.remove(_:from:)` (`removeAndUnlock` here) -> `changeEntries(_:_:)`, in
 *                             place through `RoundList.change(_:)` (which first makes a fresh copy,
 *                             `RoundList.freshCopy(of:)`, of a buffer a lane took) or on `changedEntries` (a fresh
 *                             copy made under the lock), where
 *                             `SubscriberList.remove(_:from:)` (`remove` here) writes `nil` into the entry's slot and
 *                             calls `SubscriberList.compact` when removed slots outnumber live ones; then
 *                             `RoundList.skip(_:_:)` when `DeliveryLatch.holder(ifHeldBy:)` finds that the calling
 *                             thread holds the delivery; then, for Q, `QueuedEntry.close()`.
 *   offer (LANE)              `RoundList.offer(_:to:laneAt:_:)` -> the entry's lane (`QueuedEntry.lane`) ->
 *                             `DeliveryLane.take(_:entries:offsets:)` (Lanes/DeliveryLane.swift): the event, with the
 *                             round's buffer and the lane's offsets in it, appended to the lane's `LaneBuffer` under
 *                             the lane's lock, where the block takes it; then `isShared` set, as the lane queued it.
 *   Block (LANE)              `DeliveryLane.drain()`: takes an item under the lane's lock, then reads the item's buffer
 *                             at Q's offset (as `LaneBuffer.deliver(_:to:of:)` does, and `HeldResponders.hold(_:of:)`
 *                             and `HeldResponders.deliver(_:)` do for a run) and calls Q's handler unless Q is
 *                             cancelled (`QueuedEntry.receive(_:)`, or in a run
 *                             `QueuedEntry.receiveHoldingNothing(_:)`, as Q has no responder).
 *
 * Steps. Every access to the word is a step of its own, as each `eventbus_atomic_*` call is one atomic operation, and
 * so is the CAS loop's every load and compare-and-swap. What no other thread can observe in between shares a step
 * with its neighbour, which removes interleavings that no thread can tell apart: taking the lock and the next load of
 * the word; the work done under the lock while this thread holds the delivery, up to the change of the word that ends
 * it (a claim then fails, and a locked thread waits for the lock); a change of the list and the unlock after it; and a
 * round's passes over its entries, which touch only their entry and run a handler, while the round's list is frozen
 * (one step for the whole round in the default configuration; a step per slot in LANE, where a pass may hand the
 * event to the lane, which its block sees, and H's handler's sends and cancels take the lock, each a step of its own).
 * The block's taking of an item and its read of the item's buffer are two steps, so a write can fall between them.
 *
 * Properties, as assertions checked in every reachable state:
 *   - every event reaches an entry never cancelled exactly once, and every entry sees each sender's events in order
 *     (H's handler counts as one sender);
 *   - no entry receives an event sent after its cancel returned; none receives anything once a cancel from the thread
 *     that delivers to it returned, in the same round either (`skipped`); Q's block calls nothing once Q's cancel
 *     returned; every entry receives each event sent after its subscribe returned whose round ended before its cancel
 *     began (Q: its lane queued it for Q), so nobody else is skipped;
 *   - one round at a time, never nested, never run by a thread that holds the lock; an event sent from a handler is
 *     delivered only after the round it was sent in ended (G3);
 *   - the round's list changes only under the lock, by the holder of the delivery or while the word is
 *     CHANGING_ENTRIES, and never while a lock-free holder reads it; a lock holder never finds the word
 *     CHANGING_ENTRIES; a responder entry found dead is removed at the end of that round;
 *   - LANE: no slot of a buffer a lane took is written again: the block never reads a slot written after its item took
 *     the buffer, as a race (ThreadSanitizer would report it: that write follows the block's read only through the
 *     buffer's reference count); the block finds Q at the offset its item names (the lane's offsets are not stale);
 *     a removal finds its entry at its slot, and no index is out of range (Swift traps);
 *   - when every thread has returned: the latch is idle, the lock free, nothing changed, queued for a holder or
 *     waiting in the lane, no entry skipped or dead for the round, the round's list holds exactly the entries not
 *     removed, each at its slot, and every other buffer is freed.
 * The safety run also fails on an invalid end state (a thread blocked for ever: a deadlock); the liveness run checks
 * that every execution ends (`terminates`), so that no loop can spin for ever.
 *
 * Not modelled: replay windows and the trace hook (with either, a send always takes the lock), and the machine's
 * other work for the holder (`Backlog.replays`, `Backlog.waits`); pruning (`pruneDeadEntries`, `removeDead` outside a
 * round's end); a subscribe, a responder's deinit and a dead entry's removal in the LANE configuration, and two senders
 * there (SENDERS=2 does not fit in 2 GB); more than one lane, and a lane with more than one entry: a lane is offered
 * each round's event once, at the first of its entries that the round reaches and does not skip, and its other entries
 * are passed over, as the round's number (`RoundList.Contents.round`, `LanePlan.offeredRound`) and each slot's lane
 * (`RoundList.Contents.laneIndexes`) decide (here Q, the lane's only entry, is that first entry, never skipped, as
 * only the other thread cancels it); the round's early end once every lane took the event and no entry is delivered
 * on the sending thread (`hasImmediateEntries`; P is, throughout); responder entries on a lane (`HeldResponders`'
 * check of the last reference, `QueuedEntry.responderToHold()`, `QueuedEntry.receive(_:heldResponder:)`), the main
 * queue's inline delivery (`LanePlan.deliversInline`), a lane's scheduling of one block at a time (one block thread
 * stands for them all); `RoundList.Contents.hasSkipped` and `RoundList.Contents.roundHasLaneWork`, which only spare a
 * round work (the search of `skipped`; `beginRound` on a list without lanes); compaction's minimum of 32 slots (here
 * any list compacts once removed slots outnumber live ones). The skipped and dead entries are the round's, kept by
 * `RoundList`, not flags of the entries, and `RoundList.endRound(_:)` forgets or hands them over at each round's end;
 * the lane's offsets are the round's too (`RoundList.LanePlan`), found again as a round begins after a change, and the
 * round's list carries no stamps: the lane takes the event once, for all of its entries. A bounded lane's buffering
 * policy (`DeliveryLane.take(_:entries:offsets:)` on a lane with a `bufferingPolicy` limit) is not modelled either: it
 * drops an item that waits in the lane, or the new one, under the lane's lock, before the block has taken it, and so
 * never writes a list, a slot or the latch; it only releases, after that lock, a reference to a buffer a lane took,
 * which the model's reference counts already allow at any step.
 *
 * Flags (spin runs the C preprocessor). Default configuration: SEEDED_BUG=1 makes the holder let go of the delivery
 * before it installs the changed list, so a lock-free send claims it and reads the list while it is replaced;
 * SEEDED_BUG=2 makes `tryRelease` let go even when work is queued, so a queued event is never delivered. LANE:
 * SEEDED_BUG=3 drops the fresh copy of `RoundList.change(_:)`, so a cancel from another thread writes `nil` into a slot
 * of the buffer a lane's block still reads (the race this protocol removed); SEEDED_BUG=4 makes a cancel on the
 * delivering thread leave out `RoundList.skip(_:_:)`, so the entry is not in `skipped`; SEEDED_BUG=5 lets a handler's
 * send claim the delivery its own thread holds, a nested round; SEEDED_BUG=6 makes compaction keep the entries' old
 * slot numbers. USER_VISIBLE_ONLY drops the assertions on the protocol's internals, keeping those on what subscribers
 * receive, on races and traps, and on the final state: the seeded bugs must be found with it too. CYCLES sets how many
 * entries the subscriber thread of the default configuration adds and cancels (2); BUFFERS how many list buffers LANE
 * has room for (6).
 */

#define WORK_QUEUED       1
#define CHANGING_ENTRIES  2
#define BITS(t)   ((t) * 4)
#define HOLDER(w) ((w) / 4)

byte word = 0;
byte lockOwner = 0;
byte threadsReturned = 0;
bool finished = false;

/* Takes the lock and loads the word, in one step: the lock is invisible to a thread that does not take it, so nothing
   can tell the two orders apart. Only a lock holder sets CHANGING_ENTRIES, and it clears it before unlocking. */
inline lockAndLoadWord(me) {
  atomic {
    lockOwner == 0 -> lockOwner = me;
    current = word;
#ifndef USER_VISIBLE_ONLY
    assert((current & CHANGING_ENTRIES) == 0)
#endif
  }
}

/* `DeliveryLatch.takeIdleOrMarkWorkQueued(settingTo:)`, under the lock, after `lockAndLoadWord`: a step per
   compare-and-swap and per load after a failed one. */
inline takeIdleOrMarkWorkQueued(value, taken) {
  do
  :: current == 0 ->
     atomic {
       if
       :: word == 0 -> word = value; taken = true; current = 0; break
       :: else -> current = word   /* the holder let go, or another thread claimed, in between: look again */
       fi
     }
  :: current != 0 && (current & WORK_QUEUED) != 0 -> taken = false; current = 0; break
  :: current != 0 && (current & WORK_QUEUED) == 0 ->
     atomic {
       if
       :: word == current -> word = current | WORK_QUEUED; taken = false; current = 0; break
       :: else -> current = word
       fi
     }
  od
}

#ifndef LANE

/* ---------------------------------------------------------------------------------------------------------------
 * The default configuration: two senders, a subscriber thread, a responder's deinit.
 * ------------------------------------------------------------------------------------------------------------- */

#define SENDERS            2
#define EVENTS_PER_SENDER  2
#define EVENTS             (SENDERS * EVENTS_PER_SENDER)
#define SENDER_OF(e)       ((e) / EVENTS_PER_SENDER)
#define SEQUENCE_OF(e)     ((e) % EVENTS_PER_SENDER)

/* Entries: a token-owned subscriber for the whole run, a responder that deinitialises, and the entries the
   subscriber thread adds and cancels in turn. */
#define PERMANENT  0
#define RESPONDER  1
#define FIRST      2
#ifndef CYCLES
#define CYCLES     2
#endif
#define ENTRIES    (FIRST + CYCLES)
#define BIT(m)     (1 << (m))
#define HAS(l, m)  (((l) >> (m)) & 1)
#define CHANGED(l, m, adding)  ((adding) -> ((l) | BIT(m)) : ((l) & ~BIT(m)))

/* Thread numbers; 0 means nobody. */
#define SUBSCRIBER (SENDERS + 1)

byte entries = BIT(PERMANENT) | BIT(RESPONDER);   /* `RoundList.List.entries`, one bit an entry */
byte changedEntries = 0;              /* `SubscriberList.changedEntries`, when `hasChangedEntries` */
bool hasChangedEntries = false;
chan backlogEvents = [EVENTS] of { byte };   /* `DeliveryStateMachine.Backlog.events` */
bool responderAlive = true;
bool dead = false;                    /* `RoundList.Contents.dead` holds the responder's entry (no other can be dead) */
byte isRemoved = 0;                   /* `Entry.isRemoved`, one bit an entry */

/* Ghost state, for the properties only. */
byte lockFreeReaders = 0;             /* threads that read the round list with no lock: from tryClaim to tryRelease */
byte roundsRunning = 0;
byte received[ENTRIES];               /* one bit an event */
/* How far the subscriber thread is: for its i-th entry, 2i + 1 once the subscribe returned, 2i + 2 once the cancel
   returned; `cancelling` from the cancel's taking the lock to its return. */
byte phase = 0;
bool cancelling = false;
byte phaseWhenSent[EVENTS];           /* `phase` when the event's send began */
#define SUBSCRIBE_RETURNED(m)  (2 * ((m) - FIRST) + 1)
#define CANCEL_RETURNED(m)     (2 * ((m) - FIRST) + 2)
#define CANCEL_BEGUN(m)        (phase > SUBSCRIBE_RETURNED(m) || (phase == SUBSCRIBE_RETURNED(m) && cancelling))

/* What every write of the round's list checks: under the lock, by the holder of the delivery or while the word is
   CHANGING_ENTRIES, and never while a lock-free holder reads it. */
inline writingEntries(me) {
#ifndef USER_VISIBLE_ONLY
  assert(lockOwner == me);
  assert(HOLDER(word) == me || word == CHANGING_ENTRIES);
  assert(lockFreeReaders == 0)
#else
  skip
#endif
}

/* `RoundList.change(_:)`: the round's list changed in place. (A buffer a lane took, which `change` copies first, is
   the LANE configuration's.) */
inline change(me, newEntries) {
  atomic {
    writingEntries(me);
    entries = newEntries
  }
}

/* `RoundList.install(_:)`: the changed list replaces the round's. */
inline install(me, newEntries) {
  atomic {
    writingEntries(me);
    entries = newEntries
  }
}

/* A round: `event` to every entry of the round's list, read as `elements`, with no lock held, in two steps: it starts,
   then it runs the loop of `DeliveryStorage.deliver(_:holder:isLockFree:)` and ends. A responder entry whose
   responder is gone (`EventEntry.deliver(_:)` returns false) goes to `dead` (`RoundList.markDead(_:_:)`), and the
   round sets `deadFound`. Other threads cannot see the loop's passes: each touches only its entry and runs a handler,
   and the round's list is frozen. */
inline deliverRound(me, event) {
  atomic {
    assert(lockOwner != me);
    assert(roundsRunning == 0);
    roundsRunning++;
    elements = entries
  }
  atomic {
    deadFound = false;
    for (m : 0 .. ENTRIES - 1) {
      if
      :: !HAS(elements, m)
      :: HAS(elements, m) && m == RESPONDER && !responderAlive -> dead = true; deadFound = true
      :: HAS(elements, m) && !(m == RESPONDER && !responderAlive) ->
         assert(!HAS(received[m], event));
         received[m] = received[m] | BIT(event);
         /* nothing sent after the entry's cancel returned */
         assert(m < FIRST || phaseWhenSent[event] < CANCEL_RETURNED(m));
         /* first in, first out per sender: no later event of this sender reached the entry before */
         assert(((received[m] >> (event + 1)) & (BIT(EVENTS_PER_SENDER - 1 - SEQUENCE_OF(event)) - 1)) == 0)
      fi
    }
    /* every entry whose subscribe returned before the send began, and whose cancel has not begun, received it */
    for (m : FIRST .. ENTRIES - 1) {
      assert(!(phaseWhenSent[event] >= SUBSCRIBE_RETURNED(m) && !CANCEL_BEGUN(m)) || HAS(received[m], event))
    }
    m = 0;
    elements = 0;
    phaseWhenSent[event] = 0;   /* not needed any more: forgetting it lets the checker merge states */
    roundsRunning--
  }
}

/* The list's part of `DeliveryStorage.finishRound(deadFound:holder:_:)`: `RoundList.install(_:)` of the changed list,
   then `RoundList.endRound(_:)`, which hands over the entries the round found dead, and
   `SubscriberList.removeDead(_:from:)` of those, unless already removed, through `RoundList.change(_:)` (from the list
   just installed, or the round's own). */
inline installAndRemoveDead(me) {
  if
  :: hasChangedEntries -> install(me, changedEntries); changedEntries = 0; hasChangedEntries = false
  :: else
  fi;
  if
  :: dead ->
     dead = false;
     if
     :: !HAS(isRemoved, RESPONDER) ->
        isRemoved = isRemoved | BIT(RESPONDER);
        change(me, entries & ~BIT(RESPONDER))
     :: else
     fi
  :: else
  fi;
  /* a responder entry found dead is removed at the end of the round that found it */
  assert(!deadFound || HAS(isRemoved, RESPONDER))
}

/* `DeliveryStateMachine.finishRound()`, which pops the next queued event or says to release, then
   `DeliveryLatch.settle(_:keeping:)`, which keeps the delivery for that event or lets it go. */
inline settle(me) {
  if
  :: nempty(backlogEvents) -> backlogEvents?event; word = BITS(me); hasNext = true
  :: empty(backlogEvents) -> word = 0; hasNext = false
  fi
}

/* `DeliveryStorage.finishRound(deadFound:holder:_:)`, called by `finishRounds(after:holder:)`, under the lock. One
   step: while this thread holds the delivery, another can only fail to claim it and wait for the lock, so no thread
   can tell the steps under the lock apart until the word changes, and that is the step's last change but the unlock.
   With the seeded bug, the word changes first, and the rest is a step of its own. */
inline finishRound(me) {
#if SEEDED_BUG == 1
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    settle(me)
  }
  atomic {
    installAndRemoveDead(me);
    deadFound = false;
    lockOwner = 0
  }
#else
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    installAndRemoveDead(me);
    settle(me);
    deadFound = false;
    lockOwner = 0
  }
#endif
}

/* `DeliveryStorage.deliver(_:holder:isLockFree:)`: a round; then, for a holder that claimed with no lock,
   `DeliveryLatch.tryRelease(_:)`, unless the round found a dead responder; then, while this thread still holds the
   delivery, `finishRound` and the next round, until the machine says to release. */
inline deliver(me) {
  do
  :: hasNext ->
     deliverRound(me, event);
     if
     :: isLockFree ->
        atomic {
          lockFreeReaders--;
          if
          :: deadFound
#if SEEDED_BUG == 2
          :: !deadFound && HOLDER(word) == me -> word = 0; hasNext = false
#else
          :: !deadFound && word == BITS(me) -> word = 0; hasNext = false
#endif
          :: else
          fi;
          isLockFree = false
        }
     :: else
     fi;
     if
     :: hasNext -> finishRound(me)
     :: else
     fi
  :: else -> break
  od
}

proctype Sender(byte me) {
  byte event, k, m, elements, current;
  bool claimed, isLockFree, deadFound, hasNext;
  for (k : 0 .. EVENTS_PER_SENDER - 1) {
    /* `Output.send`: `DeliveryStorage.claimWithNoLock(for:)` -> `DeliveryLatch.tryClaim(for:)`; on success the holder
       reads the round's list with no lock, frozen until it lets go. */
    atomic {
      event = (me - 1) * EVENTS_PER_SENDER + k;
      phaseWhenSent[event] = phase;
      if
      :: word == 0 -> word = BITS(me); isLockFree = true; lockFreeReaders++; hasNext = true
      :: else -> isLockFree = false
      fi
    }
    if
    :: isLockFree
    :: else ->
       /* `DeliveryStorage.sendWithLock(_:from:)`, under the lock: `claimOrMarkWorkQueued(for:)` claims, or marks work
          queued for the holder, and `DeliveryStateMachine.send(_:claimed:)` queues the event if it did not claim */
       lockAndLoadWord(me);
       takeIdleOrMarkWorkQueued(BITS(me), claimed);
       atomic {
         if
         :: claimed -> hasNext = true
         :: else -> backlogEvents!event; hasNext = false
         fi;
         claimed = false;
         lockOwner = 0
       }
    fi;
    deliver(me)
  }
  atomic { k = 0; event = 0; threadsReturned++ }
}

/* `DeliveryStorage.changeEntries(_:_:)`, under the lock, after `lockAndLoadWord`: add or remove `m`, in place through
   `change` while the word is CHANGING_ENTRIES (`beginChangingEntries()` ... `endChangingEntries()`), else on
   `changedEntries`, work marked queued for the holder. Then unlock, in the same step as the change: nobody can tell
   them apart. */
inline changeEntriesAndUnlock(me, m, adding) {
  if
  :: !hasChangedEntries -> takeIdleOrMarkWorkQueued(CHANGING_ENTRIES, inPlace)
  :: else -> inPlace = false; current = 0
  fi;
  atomic {
    if
    :: inPlace ->
       newEntries = CHANGED(entries, m, adding);
       change(me, newEntries);
       newEntries = 0;
       assert(word == CHANGING_ENTRIES);
       word = 0
    :: else ->
       if
       :: !hasChangedEntries -> changedEntries = entries; hasChangedEntries = true
       :: else
       fi;
       changedEntries = CHANGED(changedEntries, m, adding)
    fi;
    inPlace = false;
    lockOwner = 0;
    phase++;
    cancelling = false
  }
}

proctype Subscriber(byte me) {
  byte m, current, newEntries;
  bool inPlace;
  for (m : FIRST .. ENTRIES - 1) {
    /* `DeliveryStorage.add(_:at:)` -> `SubscriberList.add(_:at:to:)` */
    lockAndLoadWord(me);
    changeEntriesAndUnlock(me, m, true);
    /* `SubscriptionHandle.cancel` -> `Output.remove` -> `DeliveryStorage.remove(_:from:)` ->
       `SubscriberList.remove(_:from:)` */
    atomic {
      lockAndLoadWord(me);
      cancelling = true;
      assert(!HAS(isRemoved, m));
      isRemoved = isRemoved | BIT(m)
    }
    changeEntriesAndUnlock(me, m, false)
  }
  atomic { m = 0; threadsReturned++ }
}

proctype ResponderDeinit() {
  atomic { responderAlive = false; threadsReturned++ }
}

init {
  byte e;
  atomic {
    run Sender(1);
    run Sender(2);
    run Subscriber(SUBSCRIBER);
    run ResponderDeinit()
  }
  threadsReturned == SENDERS + 2;
  /* Every thread has returned. */
  for (e : 0 .. EVENTS - 1) {
    assert(HAS(received[PERMANENT], e))
  }
  assert(word == 0);
  assert(lockOwner == 0);
  assert(!hasChangedEntries);
  assert(empty(backlogEvents));
  assert(lockFreeReaders == 0 && roundsRunning == 0);
  assert(!dead);
  assert(entries == (BIT(PERMANENT) | (HAS(isRemoved, RESPONDER) -> 0 : BIT(RESPONDER))));
  finished = true
}

#else

/* ---------------------------------------------------------------------------------------------------------------
 * The LANE configuration: handlers that send and cancel, a lane's hand-off of the list, compaction.
 * ------------------------------------------------------------------------------------------------------------- */

/* Entries, in subscription order, all subscribed from the start: entry i is in slot i of the first list. */
#define H        0   /* token-owned, immediate: its handler sends two events and cancels V, then cancels itself */
#define V        1   /* token-owned, immediate: cancelled by H's handler, on the delivering thread */
#define W        2   /* token-owned, immediate: cancelled from another thread */
#define Q        3   /* token-owned, on a queue: delivered by the lane's block, cancelled from another thread */
#define P        4   /* token-owned, immediate: never cancelled */
#define ENTRIES  5
#define NONE     255
#define BIT(m)     (1 << (m))
#define HAS(l, m)  (((l) >> (m)) & 1)

/* Events: sender i's two are 2i and 2i + 1, H's handler's two the last two. */
#ifndef SENDERS
#define SENDERS            1
#endif
#define EVENTS_PER_SENDER  2
#define FROM_HANDLER       (SENDERS * EVENTS_PER_SENDER)
#define EVENTS             (FROM_HANDLER + 2)
#define SEQUENCE_OF(e)     ((e) % EVENTS_PER_SENDER)

/* Thread numbers; 0 means nobody. The senders are 1 .. SENDERS. */
#define CANCELLER  (SENDERS + 1)

/* List buffers: `ContiguousArray<Entry?>` storage, one row of ENTRIES slots each, a slot the entry's number plus one
   or 0 for `nil`; `arrayCount[b]` is the array's count, 0 for a buffer that nobody references (free, and cleared, so
   that states that differ only in garbage merge). */
#ifndef BUFFERS
#define BUFFERS    6
#endif
#define SLOT(b, s) slots[(b) * ENTRIES + (s)]
byte slots[BUFFERS * ENTRIES];
byte arrayCount[BUFFERS];
byte refs[BUFFERS];                   /* the lane's waiting items and its block that reference the buffer */

/* The round's list, `RoundList.Contents`, and what the holder keeps of it. */
byte entries = 0;                     /* `entries`: the buffer rounds deliver to */
byte elements = NONE;                 /* `elements`: the buffer the running round reads */
bool isShared = false;                /* `isShared` */
bool lanesAreStale = true;            /* `lanesAreStale` */
byte offsets = NONE;                  /* `RoundList.LanePlan.offsets` of the lane's plan: Q's offset; NONE, no plan */
byte skipped = 0;                     /* `skipped`, one bit an entry */

byte changedEntries = NONE;           /* `SubscriberList.changedEntries`, NONE for `nil` */
byte count = ENTRIES;                 /* `SubscriberList.count` */
byte slot[ENTRIES];                   /* `Entry.slot` */
byte isRemoved = 0;                   /* `Entry.isRemoved`, one bit an entry */
chan backlogEvents = [EVENTS] of { byte };   /* `DeliveryStateMachine.Backlog.events` */

/* The lane (Lanes/DeliveryLane.swift): its waiting events (`LaneBuffer`: each event with its item, the round's buffer
   and Q's offset in it), and Q's flag, which the block reads before it calls the handler. */
chan laneBuffer = [EVENTS] of { byte, byte, byte };
bool qCancelled = false;              /* `QueuedEntry.cancelled` */

/* Ghost state, for the properties only. */
byte sharedOnce[BUFFERS];             /* a lane took the buffer since it was made (bool) */
byte racy[BUFFERS];                   /* slots written in place while a lane's item referenced the buffer */
byte roundEvent = NONE;               /* the event of the running round */
byte roundsRunning = 0;
byte roundsEnded = 0;                 /* one bit an event */
byte sentInRound[EVENTS];             /* for an event sent from a handler, the event of the round it was sent in */
byte returnedWhenSent[EVENTS];        /* `cancelReturned` when the event's send began */
byte received[ENTRIES];               /* one bit an event; for Q, what its block delivered */
byte queued = 0;                      /* the events a lane queued for Q */
byte cancelBegun = 0;                 /* from the cancel's taking the lock */
byte cancelReturned = 0;
byte handlerCalls = 0;                /* H's handler */
byte handlerSent = 0;

/* A buffer nobody references any more is freed: cleared. */
inline freeIfUnused(b) {
  if
  :: b != NONE && b != entries && b != changedEntries && b != elements && refs[b] == 0 ->
     for (s : 0 .. ENTRIES - 1) { SLOT(b, s) = 0 }
     arrayCount[b] = 0; sharedOnce[b] = 0; racy[b] = 0; s = 0
  :: else
  fi
}

/* A new buffer, copied from `from`: `RoundList.freshCopy(of:)`. */
inline freshCopy(from, into) {
  into = 0;
  do
  :: into < BUFFERS && arrayCount[into] != 0 -> into++
  :: into < BUFFERS && arrayCount[into] == 0 -> break
  :: into == BUFFERS -> assert(false)   /* raise BUFFERS */
  od;
  for (s : 0 .. ENTRIES - 1) { SLOT(into, s) = SLOT(from, s) }
  arrayCount[into] = arrayCount[from]; s = 0
}

/* A write of slot `index` of buffer `b`, to `nil`. Swift traps on an index out of range. A write to a buffer a lane
   took follows the block's reads of it only through the buffer's reference count, which no tool sees as a hand-off. */
inline writeSlot(b, index) {
  assert(index < arrayCount[b]);
#ifndef USER_VISIBLE_ONLY
  assert(!sharedOnce[b]);
#endif
  if
  :: refs[b] > 0 -> racy[b] = racy[b] | BIT(index)
  :: else
  fi;
  SLOT(b, index) = 0
}

/* `SubscriberList.compact`, of buffer `buf`: a new list of its live entries, renumbered, in place of `buf` as the
   round's list or the changed one. (Swift compacts only lists of 32 slots or more; here any list.) */
inline compact() {
  freshCopy(buf, fresh);              /* a buffer of its own, filled below */
  kept = 0;
  for (s : 0 .. ENTRIES - 1) {
    if
    :: s < arrayCount[buf] && SLOT(buf, s) != 0 ->
       SLOT(fresh, kept) = SLOT(buf, s);
#if SEEDED_BUG != 6
       slot[SLOT(buf, s) - 1] = kept;
#endif
       kept++
    :: else
    fi
  }
  for (s : 0 .. ENTRIES - 1) {
    if
    :: s >= kept -> SLOT(fresh, s) = 0
    :: else
    fi
  }
  arrayCount[fresh] = kept; kept = 0; s = 0;
  if
  :: buf == entries -> entries = fresh
  :: else -> changedEntries = fresh
  fi;
  freeIfUnused(buf);
  fresh = 0
}

/* `SubscriberList.remove(_:from:)` of entry `m` from buffer `b` (`remove(_:leavingCompacted:)`): `isRemoved` and
   `count`, then `nil` into the entry's slot, then `compact` when removed slots outnumber live ones. */
inline remove(b, m) {
  assert(!HAS(isRemoved, m));
  isRemoved = isRemoved | BIT(m);
  count--;
  buf = b;
#ifndef USER_VISIBLE_ONLY
  assert(SLOT(buf, slot[m]) == m + 1);
#endif
  writeSlot(buf, slot[m]);
  if
  :: count * 2 < arrayCount[buf] -> compact()
  :: else
  fi;
  buf = 0
}

/* `RoundList.didChange()`, after every `change` and `install`: the lanes are dropped, and found again by the next
   round. */
inline didChange() {
  lanesAreStale = true;
  offsets = NONE
}

/* `RoundList.change(_:)`, removing `m`, in place while the word is CHANGING_ENTRIES: first a fresh copy of the list
   (`RoundList.freshCopy(of:)`) if a lane took its buffer, then the removal, then `didChange`. */
inline change(m) {
#if SEEDED_BUG != 3
  if
  :: isShared ->
     retired = entries;
     freshCopy(retired, fresh);
     entries = fresh;
     isShared = false;
     freeIfUnused(retired);
     fresh = 0;
     retired = 0
  :: else
  fi;
#endif
  remove(entries, m);
  didChange()
}

/* `DeliveryStorage.remove(_:from:)` of entry `m` from thread `me`, after `lockAndLoadWord`: `changeEntries(_:_:)`,
   in place through `change` while the word is CHANGING_ENTRIES, else on `changedEntries` (the first change during a
   round makes it, a fresh copy of the round's list made under the lock), work marked queued for the holder; then
   `RoundList.skip(_:_:)` when the calling thread holds the delivery (`DeliveryLatch.holder(ifHeldBy:)`); then unlock,
   in the same step. */
inline removeAndUnlock(me, m) {
  if
  :: changedEntries == NONE -> takeIdleOrMarkWorkQueued(CHANGING_ENTRIES, inPlace)
  :: else -> inPlace = false; current = 0
  fi;
  atomic {
    if
    :: inPlace ->
       change(m);
       assert(word == CHANGING_ENTRIES);
       word = 0
    :: else ->
       if
       :: changedEntries == NONE -> freshCopy(entries, fresh); changedEntries = fresh; fresh = 0
       :: else
       fi;
       remove(changedEntries, m)
    fi;
#if SEEDED_BUG != 4
    if
    :: HOLDER(word) == me -> skipped = skipped | BIT(m)
    :: else
    fi;
#endif
    inPlace = false;
    lockOwner = 0;
    if
    :: m != Q -> cancelReturned = cancelReturned | BIT(m)   /* an immediate entry's cancel has returned */
    :: else
    fi
  }
}

/* `HandlerEntry.cancel()`, or Q's `QueuedEntry.cancel()`: `DeliveryStorage.remove(_:from:)`, then, for Q,
   `QueuedEntry.close()`, which sets the flag the lane's block reads before it calls the handler. */
inline cancel(me, m) {
  atomic {
    lockAndLoadWord(me);
    cancelBegun = cancelBegun | BIT(m)
  }
  removeAndUnlock(me, m);
  if
  :: m == Q -> atomic { qCancelled = true; cancelReturned = cancelReturned | BIT(Q) }
  :: else
  fi
}

/* What every round checks as it starts: one round at a time, never nested, never under the lock, and an event sent
   from a handler only after the round it was sent in. */
inline roundStarts(me, event) {
  assert(sentInRound[event] == NONE || HAS(roundsEnded, sentInRound[event]));
  assert(roundsRunning == 0);
  assert(lockOwner != me)
}

/* A send from H's handler, on the thread that holds the delivery: `tryClaim(for:)` fails, and
   `DeliveryStorage.sendWithLock(_:from:)` queues the event under the lock (`claimOrMarkWorkQueued(for:)` marks work
   queued for the holder, this thread, and `DeliveryStateMachine.send(_:claimed:)` appends the event to
   `Backlog.events`). */
inline sendFromHandler(me) {
  atomic {
    e = FROM_HANDLER + handlerSent;
    handlerSent++;
    sentInRound[e] = roundEvent;
    returnedWhenSent[e] = cancelReturned;
    lockAndLoadWord(me)
  }
#if SEEDED_BUG == 5
  /* The claim takes a delivery its own thread holds: the handler's event is delivered at once, in a nested round. */
  if
  :: HOLDER(current) == me -> nested = true; current = 0
  :: else -> takeIdleOrMarkWorkQueued(BITS(me), nested)
  fi;
#else
  takeIdleOrMarkWorkQueued(BITS(me), nested);
#endif
  atomic {
    if
    :: nested -> lockOwner = 0; roundStarts(me, e)
    :: else -> backlogEvents!e; lockOwner = 0
    fi;
    e = 0
  }
}

/* `RoundList.beginRound(_:)`, as a round starts: `RoundList.findLanes()` if the list changed since the lanes were last
   found, which finds Q's offset in the round's list, or no lane once Q is removed. */
inline beginRound() {
  if
  :: lanesAreStale ->
     offsets = NONE;
     for (s : 0 .. ENTRIES - 1) {
       if
       :: s < arrayCount[entries] && SLOT(entries, s) == Q + 1 -> offsets = s
       :: else
       fi
     }
     s = 0;
     lanesAreStale = false
  :: else
  fi
}

/* `RoundList.offer(_:to:laneAt:_:)`, on the thread that holds the delivery, when the round reaches the lane's first
   entry not skipped, Q: `DeliveryLane.take(_:entries:offsets:)` appends the event, with the round's buffer and the
   lane's offsets in it, to the lane's `LaneBuffer` (under the lane's lock, where the block takes it), and, as the
   lane queued it, `offer` sets `isShared`. */
inline offer(event) {
  laneBuffer!event, entries, offsets;
  refs[entries]++;
  sharedOnce[entries] = 1;
  isShared = true;
  queued = queued | BIT(event)
}

/* A round: `event` to every entry of the round's list not skipped (`DeliveryStorage.deliver(_:holder:isLockFree:)`
   and its step for each entry), a step per slot, and H's handler's sends and cancels steps of their own. An immediate
   entry takes the event at once; Q's pass offers it to the lane. */
inline deliverRound(me, event) {
  atomic {
    roundStarts(me, event);
    roundsRunning++;
    roundEvent = event;
    beginRound();
    elements = entries;
    at = 0
  }
  do
  :: at < arrayCount[elements] ->
     atomic {
#ifndef USER_VISIBLE_ONLY
       assert(elements == entries);    /* frozen while the round reads it */
#endif
       m = SLOT(elements, at);
       at++;
       if
       :: m == 0 -> m = NONE
       :: m != 0 && HAS(skipped, m - 1) -> m = NONE
       :: m == Q + 1 && !HAS(skipped, Q) -> m = NONE; offer(event)
       :: else ->
          m--;
          assert(!HAS(received[m], event));
          received[m] = received[m] | BIT(event);
          /* nothing after its cancel returned: on this thread, or before the event was sent */
          assert(!HAS(cancelReturned, m) || m == W);
          assert(!HAS(returnedWhenSent[event], m));
          /* first in, first out per sender */
          assert(((received[m] >> (event + 1)) & (BIT(EVENTS_PER_SENDER - 1 - SEQUENCE_OF(event)) - 1)) == 0);
          if
          :: m == H -> handlerCalls++
          :: else -> m = NONE
          fi
       fi
     }
     if
     :: m == H ->
        /* H's handler: on its first event, two sends and a cancel of V; on its second, a cancel of itself */
        do
        :: handlerCalls == 1 && handlerSent < 2 -> sendFromHandler(me)
        :: else -> break
        od;
        if
        :: handlerCalls == 1 -> m = V
        :: else -> m = H
        fi;
        cancel(me, m)
     :: else
     fi;
     m = 0
  :: else -> break
  od;
  atomic {
    /* nobody else skipped: every entry whose cancel has not begun received the event (Q: its lane queued it) */
    for (m : 0 .. ENTRIES - 1) {
      assert(HAS(cancelBegun, m) || (m == Q -> HAS(queued, event) : HAS(received[m], event)))
    }
    m = 0; at = 0;
    roundsEnded = roundsEnded | BIT(event);
    roundsRunning--;
    roundEvent = NONE;
    elements = NONE
  }
}

/* `DeliveryStorage.finishRound(deadFound:holder:_:)` under the lock, one step: `RoundList.install(_:)` of the changed
   list (which clears `isShared`, then `didChange`), `RoundList.endRound(_:)`, which forgets the skipped entries, then
   `DeliveryStateMachine.finishRound()` pops a queued event and `DeliveryLatch.settle(_:keeping:)` keeps the delivery
   for it, or lets it go. No entry here can be found dead. */
inline finishRound(me) {
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    if
    :: changedEntries != NONE ->
       retired = entries;
       entries = changedEntries;
       changedEntries = NONE;
       isShared = false;
       didChange();
       freeIfUnused(retired);
       retired = 0
    :: else
    fi;
    skipped = 0;
    if
    :: nempty(backlogEvents) -> backlogEvents?event; word = BITS(me); hasNext = true
    :: empty(backlogEvents) -> word = 0; hasNext = false
    fi;
    lockOwner = 0
  }
}


proctype Sender(byte me) {
  byte event, e, k, m, at, s, current, retired, fresh, buf, kept;
  bool claimed, nested, hasNext, isLockFree, inPlace;
  for (k : 0 .. EVENTS_PER_SENDER - 1) {
    /* `Output.send`: `DeliveryStorage.claimWithNoLock(for:)` -> `DeliveryLatch.tryClaim(for:)`, with no lock */
    atomic {
      event = (me - 1) * EVENTS_PER_SENDER + k;
      sentInRound[event] = NONE;
      returnedWhenSent[event] = cancelReturned;
      if
      :: word == 0 -> word = BITS(me); isLockFree = true; hasNext = true
      :: else -> isLockFree = false
      fi
    }
    if
    :: isLockFree
    :: else ->
       /* `DeliveryStorage.sendWithLock(_:from:)`, under the lock: `claimOrMarkWorkQueued(for:)` claims, or marks work
          queued for the holder, and `DeliveryStateMachine.send(_:claimed:)` queues the event if it did not claim */
       lockAndLoadWord(me);
       takeIdleOrMarkWorkQueued(BITS(me), claimed);
       atomic {
         if
         :: claimed -> hasNext = true
         :: else -> backlogEvents!event; hasNext = false
         fi;
         claimed = false;
         lockOwner = 0
       }
    fi;
    /* `DeliveryStorage.deliver(_:holder:isLockFree:)`: a round, `DeliveryLatch.tryRelease(_:)` after a lock-free
       claim, then, if the holder still holds the delivery, `finishRound` and the next round */
    do
    :: hasNext ->
       deliverRound(me, event);
       if
       :: isLockFree ->
          atomic {
            if
            :: word == BITS(me) -> word = 0; hasNext = false
            :: else
            fi;
            isLockFree = false
          }
       :: else
       fi;
       if
       :: hasNext -> finishRound(me)
       :: else
       fi
    :: else -> break
    od
  }
  atomic { k = 0; event = 0; threadsReturned++ }
}

/* Another thread cancels W, then Q (`QueuedEntry.cancel()`: `DeliveryStorage.remove(_:from:)`, then
   `QueuedEntry.close()`, which the block reads before it calls the handler), or Q, then W. */
proctype Canceller(byte me) {
  byte s, current, retired, fresh, buf, kept, first, m;
  bool inPlace;
  if
  :: first = W
  :: first = Q
  fi;
  m = first;
  do
  :: m != NONE ->
     cancel(me, m);
     if
     :: m == first -> m = (first == W -> Q : W)
     :: else -> m = NONE
     fi
  :: else -> break
  od;
  atomic { first = 0; m = 0; threadsReturned++ }
}

/* The lane's block, on the lane's queue (`DeliveryLane.drain()`): takes a waiting item under the lane's lock, then
   reads the item's buffer at Q's offset (`LaneBuffer.deliver(_:to:of:)`, or `HeldResponders.hold(_:of:)` and
   `HeldResponders.deliver(_:)`, read the same slots) and hands Q the event unless Q is cancelled
   (`QueuedEntry.receive(_:)`, `QueuedEntry.receiveHoldingNothing(_:)`); then lets go of the item. One block for the
   whole run: that the lane schedules one block at a time is not modelled. */
proctype Block() {
  byte e, b, o, m, s;
  do
  :: laneBuffer?e, b, o ->
     atomic {
       /* a slot written in place while the lane's item referenced the buffer: the block's read races that write */
       assert(!HAS(racy[b], o));
       m = SLOT(b, o);
       /* the item's offset names Q in its buffer: lanes left stale would lose Q's event, or hand it to another */
       assert(m == Q + 1);
       if
       :: m == Q + 1 && !qCancelled ->
          assert(!HAS(cancelReturned, Q));
          assert(!HAS(received[Q], e));
          received[Q] = received[Q] | BIT(e);
          assert(((received[Q] >> (e + 1)) & (BIT(EVENTS_PER_SENDER - 1 - SEQUENCE_OF(e)) - 1)) == 0)
       :: else
       fi;
       refs[b]--;
       freeIfUnused(b);
       e = 0; b = 0; o = 0; m = 0
     }
  :: atomic { threadsReturned == SENDERS + 1 && empty(laneBuffer) -> break }
  od;
  threadsReturned++
}

init {
  byte m, b;
  atomic {
    for (m : 0 .. ENTRIES - 1) {
      SLOT(0, m) = m + 1;
      slot[m] = m
    }
    arrayCount[0] = ENTRIES;
    m = 0;
    for (m : 1 .. SENDERS) {
      run Sender(m)
    }
    run Canceller(CANCELLER);
    run Block()
  }
  threadsReturned == SENDERS + 2;
  /* Every thread has returned. */
  for (m : 0 .. EVENTS - 1) {
    assert(HAS(received[P], m))
  }
  assert(word == 0);
  assert(lockOwner == 0);
  assert(changedEntries == NONE);
  assert(empty(backlogEvents) && empty(laneBuffer));
  assert(skipped == 0);
  assert(isRemoved == (BIT(H) | BIT(V) | BIT(W) | BIT(Q)));
  /* the round's list holds exactly the entries not removed */
  for (m : 0 .. ENTRIES - 1) {
    assert(HAS(isRemoved, m) || SLOT(entries, slot[m]) == m + 1);
    assert(m >= arrayCount[entries] || SLOT(entries, m) == 0 || !HAS(isRemoved, SLOT(entries, m) - 1))
  }
  /* every other buffer freed */
  for (b : 0 .. BUFFERS - 1) {
    assert(refs[b] == 0 && (b == entries || arrayCount[b] == 0))
  }
  finished = true
}

#endif

ltl terminates { <> finished }
