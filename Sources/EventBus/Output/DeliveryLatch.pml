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
 * its item names in the buffer the item keeps. SENDERS=2 adds a second sender: tens of millions of states, more than
 * 2 GB; the script does not run it.
 *
 * What the model's state stands for, in both:
 *   word, WORK_QUEUED,        `DeliveryLatch`'s latch word and its flags `workQueued` and `changingEntries`
 *   CHANGING                  (DeliveryLatch.swift). A thread's bits are its number times 4 here, its `pthread_t`
 *                             there; both leave the two flag bits free.
 *   lockOwner                 the output's lock, `LockedState.withLock` (Internal/LockedState.swift): a mutex that is
 *                             not reentrant, so a thread that takes it twice blocks for ever (an invalid end state
 *                             here).
 *   pendingEvents             `DeliveryStateMachine.pending` (DeliveryStateMachine.swift).
 *   removed                   `Entry.isRemoved` (Entry.swift).
 * In the default configuration:
 *   roundList                 the round's list, `RoundEntries.list` and its view `elements` (RoundEntries.swift),
 *                             written only through `RoundEntries.change` (`writeRoundList` here). A list is a set of
 *                             entries: slots keep subscription order, which no property there depends on.
 *   changedList, hasChanged   `SubscriberList.changedEntries` (SubscriberList.swift).
 *   responderAlive, isDead    the responder entry's weak reference, and `Entry.isDead`.
 * In the LANE configuration:
 *   slots, count, refs        list buffers: each slot an entry or `nil`, the array's count, and how many of the lane's
 *                             items and its block reference the buffer. A buffer nobody references is cleared (freed).
 *   list, isListShared        `RoundEntries.list` and `RoundEntries.isListShared` (RoundEntries.swift).
 *   changed                   `SubscriberList.changedEntries`.
 *   slotOf, live, skipped     `Entry.slot`, `SubscriberList.count`, `Entry.isSkipped`.
 *   laneOffset, offsetsFresh  `DeliveryLane.offsets` (Queued/DeliveryLane.swift), and whether `offsetsVersion` is the
 *                             list's `RoundEntries.version`, which every `change` and `install` moves.
 *   laneItems                 `LaneItems` (Queued/LaneItems.swift): an event, the round's buffer and Q's offset in it.
 *   qClosed                   `QueuedHandlerEntry.cancelled` (Queued/QueuedHandlerEntry.swift).
 *
 * What each step stands for (type, function, file):
 *   Sender                    `Output.send` (Output.swift). Lock-free: `DeliveryLatch.tryClaim` and the read of the
 *                             round's list (`Output.deliver(_:to:in:holder:)`, Output+Delivery.swift), the round, then
 *                             `DeliveryLatch.tryRelease`; if that fails or the round found a dead responder,
 *                             `Output.finishRound(deadFound:holder:)` and `Output.deliverRounds` (Output+Delivery.swift).
 *                             Locked, after a failed claim: `DeliveryStateMachine.send`, which calls
 *                             `SubscriberList.claimOrMarkWorkQueued` (-> `DeliveryLatch.claimOrMarkWorkQueued`) and
 *                             returns `.deliver(event, subscribers.roundEntries)` or appends the event to `pending`.
 *   takeIdleOrMarkWorkQueued  `DeliveryLatch.takeIdleOrMarkWorkQueued(settingTo:)`, the compare-and-swap loop behind
 *                             `claimOrMarkWorkQueued` and `beginChangingEntries`.
 *   deliverRound              the loop of `Output.deliver(_:to:in:holder:)`: an entry marked `isSkipped` is passed over; a
 *                             responder entry whose responder is gone (`ResponderEntry.deliver` returns false) is
 *                             marked `isDead`, and the round returns `deadFound`; a queued entry hands the event to its
 *                             lane (`QueuedHandlerEntry.receive(_:in:holder:)` -> `DeliveryLane.receive(_:for:in:holder:)`).
 *   finishRound               `DeliveryStateMachine.finishRound(deadFound:holder:subscribers:)` under the lock: first
 *                             `SubscriberList.finishRound(deadFound:holder:)` (install the changed list with
 *                             `RoundEntries.install`, remove the entries the round found dead), then
 *                             `DeliveryStateMachine.next(after:subscribers:)` (pop a pending event and keep the
 *                             delivery, or let it go; both `DeliveryLatch.settle(holder:keeping:)`).
 *   Subscriber                `Output.add` (Output+Subscribing.swift) -> `SubscriberList.add`, then
 *                             `SubscriptionHandle.cancel` -> `Output.remove` -> `SubscriberList.cancel` ->
 *                             `remove`. Both change the list in `SubscriberList.changeEntries`: in place
 *                             between `DeliveryLatch.beginChangingEntries` and `endChangingEntries` when nobody holds
 *                             the delivery, else on a changed copy, work marked queued for the holder.
 *   ResponderDeinit           the responder's `deinit` begins: its weak reference reads `nil` from then on.
 *   sendFromHandler (LANE)    `Output.send` from H's handler, on the thread that holds the delivery: the claim fails
 *                             and the locked path queues the event (G3).
 *   cancelEntry (LANE)        `HandlerEntry.cancel` -> `Output.remove` -> `SubscriberList.cancel(_:from:)`: `remove`
 *                             -> `changeEntries`, in place through `RoundEntries.change` (which first makes a fresh
 *                             copy, `RoundEntries.freshCopy(of:)`, of a buffer a lane took) or on `changedEntries` (a
 *                             fresh copy made under the lock); `compact` when removed slots outnumber live ones;
 *                             `isSkipped` when `latch.isHeld(by: thread)`; then `close()`.
 *   laneBegin (LANE)          `DeliveryLane.begin(_:with:holder:)`: the offsets found again if the list changed, the round's
 *                             buffer taken into a waiting item (`enqueue`), `isListShared` set.
 *   Block (LANE)              `DeliveryLane.drain`: takes an item under the lane's lock, then reads the item's buffer
 *                             at Q's offset (as `HeldResponders.hold` and `deliver`, and `DeliveryLane.deliver`, do)
 *                             and calls Q's handler unless Q is closed (`QueuedHandlerEntry.receiveQueued`).
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
 *     that delivers to it returned, in the same round either (`isSkipped`); Q's block calls nothing once Q's cancel
 *     returned; every entry receives each event sent after its subscribe returned whose round ended before its cancel
 *     began (Q: its lane queued it for Q), so nobody else is skipped;
 *   - one round at a time, never nested, never run by a thread that holds the lock; an event sent from a handler is
 *     delivered only after the round it was sent in ended (G3);
 *   - the round's list changes only under the lock, by the holder of the delivery or while the word is CHANGING,
 *     and never while a lock-free holder reads it; a lock holder never finds the word CHANGING; a responder entry found
 *     dead is removed at the end of that round;
 *   - LANE: no slot of a buffer a lane took is written again: the block never reads a slot written after its item took
 *     the buffer, as a race (ThreadSanitizer would report it: that write follows the block's read only through the
 *     buffer's reference count); a removal finds its entry at its slot, and no index is out of range (Swift traps);
 *   - when every thread has returned: the latch is idle, the lock free, nothing changed, pending or waiting in the
 *     lane, the round's list holds exactly the entries not removed, each at its slot, and every other buffer is freed.
 * The safety run also fails on an invalid end state (a thread blocked for ever: a deadlock); the liveness run checks
 * that every execution ends (`terminates`), so that no loop can spin for ever.
 *
 * Not modelled: replay windows and the trace hook (with either, a send always takes the lock); pruning
 * (`pruneDeadEntries`, `removeDead`); a subscribe, a responder's deinit and a dead entry's removal in the LANE
 * configuration, and two senders there (SENDERS=2 does not fit in 2 GB); more than one lane, responder entries on a
 * lane (`HeldResponders`' check of the last reference, `QueuedResponderEntry`), the main queue's inline delivery, a
 * lane's scheduling of one block at a time (one block thread stands for them all) and the round's stamps
 * (`RoundEntries.stamp`, `RoundEntries.noteQueued(forEveryEntry:_:)`); compaction's minimum of 32 slots (here any list
 * compacts once removed slots outnumber live ones).
 *
 * Flags (spin runs the C preprocessor). Default configuration: SEEDED_BUG=1 makes the holder let go of the delivery
 * before it installs the changed list, so a lock-free send claims it and reads the list while it is replaced;
 * SEEDED_BUG=2 makes `tryRelease` let go even when work is queued, so a queued event is never delivered. LANE:
 * SEEDED_BUG=3 drops the fresh copy of `RoundEntries.change`, so a cancel from another thread writes `nil` into a slot
 * of the buffer a lane's block still reads (the race this protocol removed); SEEDED_BUG=4 makes a cancel on the
 * delivering thread leave `isSkipped` unset; SEEDED_BUG=5 lets a handler's send claim the delivery its own thread
 * holds, a nested round; SEEDED_BUG=6 makes compaction keep the entries' old slot numbers. USER_VISIBLE_ONLY drops the
 * assertions on the protocol's internals, keeping those on what subscribers receive, on races and traps, and on the
 * final state: the seeded bugs must be found with it too. CYCLES sets how many entries the subscriber thread of the
 * default configuration adds and cancels (2); BUFFERS how many list buffers LANE has room for (6).
 */

#define WORK_QUEUED   1
#define CHANGING  2
#define BITS(t)   ((t) * 4)
#define HOLDER(w) ((w) / 4)

byte word = 0;
byte lockOwner = 0;
byte threadsReturned = 0;
bool finished = false;

/* Takes the lock and loads the word, in one step: the lock is invisible to a thread that does not take it, so nothing
   can tell the two orders apart. Only a lock holder sets CHANGING, and it clears it before unlocking. */
inline lockAndLoadWord(me) {
  atomic {
    lockOwner == 0 -> lockOwner = me;
    current = word;
#ifndef USER_VISIBLE_ONLY
    assert((current & CHANGING) == 0)
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

byte roundList = BIT(PERMANENT) | BIT(RESPONDER);
byte changedList = 0;
bool hasChanged = false;
chan pendingEvents = [EVENTS] of { byte };
bool responderAlive = true;
bool isDead = false;                  /* the responder's entry; no other entry can be found dead */
byte removed = 0;                     /* `isRemoved`, one bit an entry */

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

/* `RoundEntries.change`: under the lock, by the holder of the delivery or while the word is CHANGING. */
inline writeRoundList(me, list) {
  atomic {
#ifndef USER_VISIBLE_ONLY
    assert(lockOwner == me);
    assert(HOLDER(word) == me || word == CHANGING);
    assert(lockFreeReaders == 0);
#endif
    roundList = list
  }
}

/* A round: `event` to every entry of `list`, with no lock held, in two steps: it starts, then it runs the loop of
   `Output.deliver(_:to:in:holder:)` and ends. A responder entry whose responder is gone (`ResponderEntry.deliver` returns
   false) is marked `isDead`, and the round reports `deadFound`. Other threads cannot see the loop's passes: each
   touches only its entry and runs a handler, and the round's list is frozen. */
inline deliverRound(me, event, list) {
  atomic {
    assert(lockOwner != me);
    assert(roundsRunning == 0);
    roundsRunning++
  }
  atomic {
    deadFound = false;
    for (m : 0 .. ENTRIES - 1) {
      if
      :: !HAS(list, m)
      :: HAS(list, m) && m == RESPONDER && !responderAlive -> isDead = true; deadFound = true
      :: HAS(list, m) && !(m == RESPONDER && !responderAlive) ->
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
    phaseWhenSent[event] = 0;   /* not needed any more: forgetting it lets the checker merge states */
    roundsRunning--
  }
}

/* `SubscriberList.finishRound(deadFound:holder:)`: install the changed list, then remove the entries the round found dead
   from it (the round's list is the one replaced, or the current one). */
inline finishListRound(me) {
  delivered = roundList;
  if
  :: hasChanged -> writeRoundList(me, changedList); changedList = 0; hasChanged = false
  :: else
  fi;
  if
  :: deadFound && HAS(delivered, RESPONDER) && isDead && !HAS(removed, RESPONDER) ->
     removed = removed | BIT(RESPONDER);
     writeRoundList(me, roundList & ~BIT(RESPONDER))
  :: else
  fi;
  /* a responder entry found dead is removed at the end of the round that found it */
  assert(!deadFound || HAS(removed, RESPONDER));
  delivered = 0
}

/* `DeliveryStateMachine.next(after:subscribers:)`: pop a pending event and keep the delivery, or settle idle
   (`DeliveryLatch.settle(holder:keeping:)`). */
inline nextAction(me) {
  if
  :: nempty(pendingEvents) -> pendingEvents?event; word = BITS(me); list = roundList; hasNext = true
  :: empty(pendingEvents) -> word = 0; list = 0; hasNext = false
  fi
}

/* `Output.finishRound(deadFound:holder:)`: `DeliveryStateMachine.finishRound(deadFound:holder:subscribers:)` under the lock.
   One step: while this thread holds the delivery, another can only fail to claim it and wait for the lock, so no
   thread can tell the steps under the lock apart until the word changes, and that is the step's last change but the
   unlock. With the seeded bug, the word changes first, and the rest is a step of its own. */
inline finishRound(me) {
#if SEEDED_BUG == 1
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    nextAction(me)
  }
  atomic {
    finishListRound(me);
    deadFound = false;
    lockOwner = 0
  }
#else
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    finishListRound(me);
    nextAction(me);
    deadFound = false;
    lockOwner = 0
  }
#endif
}

/* `Output.deliverRounds`: deliver, finish the round under the lock, until `.idle`. */
inline deliverRounds(me) {
  do
  :: hasNext -> deliverRound(me, event, list); finishRound(me)
  :: else -> break
  od
}

proctype Sender(byte me) {
  byte event, k, m, list, current, delivered;
  bool claimed, deadFound, hasNext;
  for (k : 0 .. EVENTS_PER_SENDER - 1) {
    /* `Output.send`: the send begins with `DeliveryLatch.tryClaim`; on success the holder reads the round list
       (`Output.deliver(_:to:in:holder:)`), frozen until it lets go. */
    atomic {
      event = (me - 1) * EVENTS_PER_SENDER + k;
      phaseWhenSent[event] = phase;
      if
      :: word == 0 -> word = BITS(me); claimed = true; lockFreeReaders++; list = roundList
      :: else -> claimed = false
      fi
    }
    if
    :: claimed ->
       deliverRound(me, event, list);
       /* `DeliveryLatch.tryRelease`, unless the round found a dead responder */
       atomic {
         lockFreeReaders--;
         if
         :: deadFound
#if SEEDED_BUG == 2
         :: !deadFound && HOLDER(word) == me -> word = 0; claimed = false
#else
         :: !deadFound && word == BITS(me) -> word = 0; claimed = false
#endif
         :: else
         fi;
         list = 0
       }
       if
       :: claimed -> finishRound(me); deliverRounds(me)
       :: else
       fi
    :: else ->
       /* `DeliveryStateMachine.send`, under the lock: claim, or mark work queued for the holder and queue the event */
       lockAndLoadWord(me);
       takeIdleOrMarkWorkQueued(BITS(me), claimed);
       atomic {
         if
         :: claimed -> list = roundList; hasNext = true
         :: else -> pendingEvents!event; hasNext = false
         fi;
         lockOwner = 0
       }
       deliverRounds(me)
    fi;
    claimed = false; deadFound = false
  }
  atomic { k = 0; event = 0; threadsReturned++ }
}

/* `SubscriberList.changeEntries`, under the lock, after `lockAndLoadWord`: add or remove `m`, in place while the
   word is CHANGING (`beginChangingEntries` ... `endChangingEntries`), else on the changed list, work marked queued
   for the holder. Then unlock, in the same step as the change: nobody can tell them apart. */
inline changeEntriesAndUnlock(me, m, adding) {
  if
  :: !hasChanged -> takeIdleOrMarkWorkQueued(CHANGING, inPlace)
  :: else -> inPlace = false; current = 0
  fi;
  atomic {
    if
    :: inPlace ->
       changed = CHANGED(roundList, m, adding);
       writeRoundList(me, changed);
       changed = 0;
       assert(word == CHANGING);
       word = 0
    :: else ->
       if
       :: !hasChanged -> changedList = roundList; hasChanged = true
       :: else
       fi;
       changedList = CHANGED(changedList, m, adding)
    fi;
    inPlace = false;
    lockOwner = 0;
    phase++;
    cancelling = false
  }
}

proctype Subscriber(byte me) {
  byte m, current, changed;
  bool inPlace;
  for (m : FIRST .. ENTRIES - 1) {
    /* `Output.add` -> `SubscriberList.add` */
    lockAndLoadWord(me);
    changeEntriesAndUnlock(me, m, true);
    /* `SubscriptionHandle.cancel` -> `Output.remove` -> `SubscriberList.cancel` -> `remove` */
    atomic {
      lockAndLoadWord(me);
      cancelling = true;
      assert(!HAS(removed, m));
      removed = removed | BIT(m)
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
  assert(!hasChanged);
  assert(empty(pendingEvents));
  assert(lockFreeReaders == 0 && roundsRunning == 0);
  assert(!isDead || HAS(removed, RESPONDER));
  assert(roundList == (BIT(PERMANENT) | (HAS(removed, RESPONDER) -> 0 : BIT(RESPONDER))));
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
   or 0 for `nil`; `count[b]` is the array's count, 0 for a buffer that nobody references (free, and cleared, so
   that states that differ only in garbage merge). */
#ifndef BUFFERS
#define BUFFERS    6
#endif
#define SLOT(b, s) slots[(b) * ENTRIES + (s)]
byte slots[BUFFERS * ENTRIES];
byte count[BUFFERS];
byte refs[BUFFERS];                   /* the lane's waiting items and its block that reference the buffer */

byte list = 0;                        /* `RoundEntries.list`: the buffer rounds deliver to */
bool isListShared = false;            /* `RoundEntries.isListShared` */
byte changed = NONE;                  /* `SubscriberList.changedEntries` */
byte slotOf[ENTRIES];                 /* `Entry.slot` */
byte removed = 0;                     /* `Entry.isRemoved`, one bit an entry */
byte live = ENTRIES;                  /* `SubscriberList.count` */
byte skipped = 0;                     /* `Entry.isSkipped` */
chan pendingEvents = [EVENTS] of { byte };

/* The lane (Queued/DeliveryLane.swift): its offsets, valid while `offsetsFresh` (`offsetsVersion == round.version`:
   every `RoundEntries.change` and `install` changes the version), and its waiting items (`LaneItems`: the event, the
   round's buffer, the offset of Q in it). */
byte laneOffset = NONE;
bool offsetsFresh = false;
chan laneItems = [EVENTS] of { byte, byte, byte };
bool qClosed = false;                 /* `QueuedHandlerEntry.cancelled` */

/* Ghost state, for the properties only. */
byte sharedOnce[BUFFERS];             /* a lane took the buffer since it was made (bool) */
byte racy[BUFFERS];                   /* slots written in place while a lane's item referenced the buffer */
byte roundBuffer = NONE;              /* the buffer the running round reads */
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
  :: b != NONE && b != list && b != changed && b != roundBuffer && refs[b] == 0 ->
     for (s : 0 .. ENTRIES - 1) { SLOT(b, s) = 0 }
     count[b] = 0; sharedOnce[b] = 0; racy[b] = 0; s = 0
  :: else
  fi
}

/* A new buffer, copied from `from`: `RoundEntries.freshCopy(of:)`. */
inline freshCopy(from, into) {
  into = 0;
  do
  :: into < BUFFERS && count[into] != 0 -> into++
  :: into < BUFFERS && count[into] == 0 -> break
  :: into == BUFFERS -> assert(false)   /* raise BUFFERS */
  od;
  for (s : 0 .. ENTRIES - 1) { SLOT(into, s) = SLOT(from, s) }
  count[into] = count[from]; s = 0
}

/* A write of slot `s` of buffer `b`, to `nil`. Swift traps on an index out of range. A write to a buffer a lane took
   follows the block's reads of it only through the buffer's reference count, which no tool sees as a hand-off. */
inline writeSlot(b, slot) {
  assert(slot < count[b]);
#ifndef USER_VISIBLE_ONLY
  assert(!sharedOnce[b]);
#endif
  if
  :: refs[b] > 0 -> racy[b] = racy[b] | BIT(slot)
  :: else
  fi;
  SLOT(b, slot) = 0
}

/* `SubscriberList.remove(_:from:leaving:)`: `nil` into the entry's slot of buffer `b`, then, when removed slots
   outnumber live ones, `compact`: a new list of the live entries, renumbered. (Swift compacts only lists of 32 slots
   or more; here any list.) */
inline removeFrom(b, m) {
  buf = b;
#ifndef USER_VISIBLE_ONLY
  assert(SLOT(buf, slotOf[m]) == m + 1);
#endif
  writeSlot(buf, slotOf[m]);
  if
  :: live * 2 < count[buf] ->
     freshCopy(buf, fresh);            /* a buffer of its own, filled below */
     k = 0;
     for (s : 0 .. ENTRIES - 1) {
       if
       :: s < count[buf] && SLOT(buf, s) != 0 ->
          SLOT(fresh, k) = SLOT(buf, s);
#if SEEDED_BUG != 6
          slotOf[SLOT(buf, s) - 1] = k;
#endif
          k++
       :: else
       fi
     }
     for (s : 0 .. ENTRIES - 1) {
       if
       :: s >= k -> SLOT(fresh, s) = 0
       :: else
       fi
     }
     count[fresh] = k; k = 0; s = 0;
     if
     :: buf == list -> list = fresh
     :: else -> changed = fresh
     fi;
     freeIfUnused(buf);
     fresh = 0
  :: else
  fi;
  buf = 0
}

/* `SubscriberList.cancel(_:from:)` of entry `m` from thread `me`, after `lockAndLoadWord`: `remove` ->
   `changeEntries`, in place while the word is CHANGING (`RoundEntries.change`: first a fresh copy if a lane took the
   list's buffer), else on `changedEntries`, a fresh copy made under the lock, work marked queued for the holder;
   then `isSkipped` when the calling thread holds the delivery; then unlock, in the same step. */
inline cancelAndUnlock(me, m) {
  if
  :: changed == NONE -> takeIdleOrMarkWorkQueued(CHANGING, inPlace)
  :: else -> inPlace = false; current = 0
  fi;
  atomic {
    assert(!HAS(removed, m));
    removed = removed | BIT(m);
    live--;
    /* the buffer to copy first, if any: in place, the list's if a lane took it; else the list, for the first change
       during the round */
    if
#if SEEDED_BUG == 3
    :: inPlace -> retired = NONE
#else
    :: inPlace && isListShared -> retired = list
    :: inPlace && !isListShared -> retired = NONE
#endif
    :: !inPlace && changed == NONE -> retired = list
    :: !inPlace && changed != NONE -> retired = NONE
    fi;
    if
    :: retired != NONE ->
       freshCopy(retired, fresh);
       if
       :: inPlace -> list = fresh; isListShared = false
       :: else -> changed = fresh
       fi;
       freeIfUnused(retired);
       fresh = 0
    :: else
    fi;
    retired = 0;
    if
    :: inPlace -> offsetsFresh = false; target = list
    :: else -> target = changed
    fi;
    removeFrom(target, m);
    target = 0;
    if
    :: inPlace -> assert(word == CHANGING); word = 0
    :: else
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
    :: m != Q -> cancelReturned = cancelReturned | BIT(m)   /* an immediate entry's `close()` does nothing */
    :: else
    fi
  }
}

/* `HandlerEntry.cancel`: `Output.remove`, then `close()`, which for Q (`QueuedHandlerEntry`) sets the flag the lane's
   block reads before it calls the handler. */
inline cancelEntry(me, m) {
  atomic {
    lockAndLoadWord(me);
    cancelBegun = cancelBegun | BIT(m)
  }
  cancelAndUnlock(me, m);
  if
  :: m == Q -> atomic { qClosed = true; cancelReturned = cancelReturned | BIT(Q) }
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

/* A send from H's handler, on the thread that holds the delivery: `tryClaim` fails, and `DeliveryStateMachine.send`
   queues the event under the lock (`claimOrMarkWorkQueued` marks work queued for the holder, this thread). */
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
    :: else -> pendingEvents!e; lockOwner = 0
    fi;
    e = 0
  }
}

/* `DeliveryLane.receive(_:for:in:holder:)` -> `begin(_:with:holder:)`, on the thread that holds the delivery, when the round reaches
   Q: find Q's offset again if the list changed, take the round's buffer into a waiting item (`enqueue`, under the
   lane's lock, where the block takes it), and set `isListShared`. */
inline laneBegin(event) {
  if
  :: !offsetsFresh ->
     laneOffset = NONE;
     for (s : 0 .. ENTRIES - 1) {
       if
       :: s < count[list] && SLOT(list, s) == Q + 1 -> laneOffset = s
       :: else
       fi
     }
     s = 0;
     offsetsFresh = true
  :: else
  fi;
  laneItems!event, list, laneOffset;
  refs[list]++;
  sharedOnce[list] = 1;
  isListShared = true;
  queued = queued | BIT(event)
}

/* A round: `event` to every entry of the round's list not skipped (`Output.deliver(_:to:in:holder:)`), a step per slot, and
   H's handler's sends and cancels steps of their own. An immediate entry takes the event at once; Q's pass hands it
   to the lane. */
inline deliverRound(me, event) {
  atomic {
    roundStarts(me, event);
    roundsRunning++;
    roundEvent = event;
    roundBuffer = list;
    at = 0
  }
  do
  :: at < count[roundBuffer] ->
     atomic {
#ifndef USER_VISIBLE_ONLY
       assert(roundBuffer == list);    /* frozen while the round reads it */
#endif
       m = SLOT(roundBuffer, at);
       at++;
       if
       :: m == 0 -> m = NONE
       :: m != 0 && HAS(skipped, m - 1) -> m = NONE
       :: m == Q + 1 && !HAS(skipped, Q) -> m = NONE; laneBegin(event)
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
        cancelEntry(me, m)
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
    roundBuffer = NONE
  }
}

/* `Output.finishRound(deadFound:holder:)` under the lock, one step: `SubscriberList.finishRound` installs the changed list
   (`RoundEntries.install`, which clears `isListShared`), then `DeliveryStateMachine.next` pops a queued event and
   keeps the delivery, or lets it go (`DeliveryLatch.settle`). No entry here can be found dead. */
inline finishRound(me) {
  atomic {
    lockOwner == 0 -> lockOwner = me;
    assert(HOLDER(word) == me);
    if
    :: changed != NONE ->
       retired = list;
       list = changed;
       changed = NONE;
       isListShared = false;
       offsetsFresh = false;
       freeIfUnused(retired);
       retired = 0
    :: else
    fi;
    if
    :: nempty(pendingEvents) -> pendingEvents?event; word = BITS(me); hasNext = true
    :: empty(pendingEvents) -> word = 0; hasNext = false
    fi;
    lockOwner = 0
  }
}


proctype Sender(byte me) {
  byte event, e, k, m, at, s, current, retired, fresh, target, buf;
  bool claimed, nested, hasNext, lockFree, inPlace;
  for (k : 0 .. EVENTS_PER_SENDER - 1) {
    /* `Output.send`: `DeliveryLatch.tryClaim`, with no lock */
    atomic {
      event = (me - 1) * EVENTS_PER_SENDER + k;
      sentInRound[event] = NONE;
      returnedWhenSent[event] = cancelReturned;
      if
      :: word == 0 -> word = BITS(me); lockFree = true; hasNext = true
      :: else -> lockFree = false
      fi
    }
    if
    :: lockFree
    :: else ->
       /* `DeliveryStateMachine.send`, under the lock: claim, or mark work queued for the holder and queue the event */
       lockAndLoadWord(me);
       takeIdleOrMarkWorkQueued(BITS(me), claimed);
       atomic {
         if
         :: claimed -> hasNext = true
         :: else -> pendingEvents!event; hasNext = false
         fi;
         claimed = false;
         lockOwner = 0
       }
    fi;
    /* `Output.deliverRounds`, after the lock-free round's `DeliveryLatch.tryRelease` failed */
    do
    :: hasNext ->
       deliverRound(me, event);
       if
       :: lockFree ->
          atomic {
            if
            :: word == BITS(me) -> word = 0; hasNext = false
            :: else
            fi;
            lockFree = false
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

/* Another thread cancels W, then Q (`QueuedHandlerEntry.cancel`: `Output.remove`, then `close()`, which the block
   reads before it calls the handler). */
proctype Canceller(byte me) {
  byte k, s, current, retired, fresh, target, buf, first, m;
  bool inPlace;
  if
  :: first = W
  :: first = Q
  fi;
  m = first;
  do
  :: m != NONE ->
     cancelEntry(me, m);
     if
     :: m == first -> m = (first == W -> Q : W)
     :: else -> m = NONE
     fi
  :: else -> break
  od;
  atomic { first = 0; m = 0; threadsReturned++ }
}

/* The lane's block, on the lane's queue (`DeliveryLane.drain`): takes a waiting item under the lane's lock, then reads
   the item's buffer at Q's offset (`HeldResponders.hold` and `deliver`, or `DeliveryLane.deliver`, read the same
   slots) and hands Q the event unless Q is closed; then lets go of the item. One block for the whole run: that the
   lane schedules one block at a time is not modelled. */
proctype Block() {
  byte e, b, o, m, s;
  do
  :: laneItems?e, b, o ->
     atomic {
       /* a slot written in place while the lane's item referenced the buffer: the block's read races that write */
       assert(!HAS(racy[b], o));
       m = SLOT(b, o);
       if
       :: m == Q + 1 && !qClosed ->
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
  :: atomic { threadsReturned == SENDERS + 1 && empty(laneItems) -> break }
  od;
  threadsReturned++
}

init {
  byte m, b;
  atomic {
    for (m : 0 .. ENTRIES - 1) {
      SLOT(0, m) = m + 1;
      slotOf[m] = m
    }
    count[0] = ENTRIES;
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
  assert(changed == NONE);
  assert(empty(pendingEvents) && empty(laneItems));
  assert(removed == (BIT(H) | BIT(V) | BIT(W) | BIT(Q)));
  /* the round's list holds exactly the entries not removed */
  for (m : 0 .. ENTRIES - 1) {
    assert(HAS(removed, m) || SLOT(list, slotOf[m]) == m + 1);
    assert(m >= count[list] || SLOT(list, m) == 0 || !HAS(removed, SLOT(list, m) - 1))
  }
  /* every other buffer freed */
  for (b : 0 .. BUFFERS - 1) {
    assert(refs[b] == 0 && (b == list || count[b] == 0))
  }
  finished = true
}

#endif

ltl terminates { <> finished }
