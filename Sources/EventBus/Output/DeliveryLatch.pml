/*
 * The delivery latch of `Output` as a Promela model, checked exhaustively by spin: every interleaving of two senders
 * (two events each), one thread that subscribes and cancels two entries in turn, and the deinit of a responder whose
 * entry is subscribed from the start, beside a token-owned entry subscribed throughout. `Scripts/check-latch-model.sh`
 * runs every check below; by hand, in a scratch directory:
 *
 *   spin -a DeliveryLatch.pml && gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c && ./pan -m100000   # safety
 *   spin -a DeliveryLatch.pml && gcc -O2 -o pan pan.c && ./pan -a -m100000 -N terminates    # every run ends
 *   spin -DSEEDED_BUG=1 -a DeliveryLatch.pml && ...   # a seeded bug: the safety run must report errors
 *
 * What the model's state stands for:
 *   word, WORK_QUEUED,        `DeliveryLatch`'s latch word and its flags `workQueued` and `changingEntries`
 *   CHANGING                  (DeliveryLatch.swift). A thread's bits are its number times 4 here, its `pthread_t`
 *                             there; both leave the two flag bits free.
 *   lockOwner                 the output's lock, `LockedState.withLock` (Internal/LockedState.swift): a mutex that is not
 *                             reentrant, so a thread that takes it twice blocks for ever (an invalid end state here).
 *   roundList                 the round's list, `RoundEntries.list` and its view `elements` (SubscriberList.swift), written
 *                             only through `RoundEntries.change` (`writeRoundList` here). A list is a set of
 *                             entries: slots keep subscription order, which no property below depends on.
 *   changedList, hasChanged     `SubscriberList.changedEntries` (SubscriberList.swift).
 *   pendingEvents             `DeliveryStateMachine.pending` (DeliveryStateMachine.swift).
 *   responderAlive, isDead    the responder entry's weak reference, and `Entry.isDead`.
 *   removed                   `Entry.isRemoved`.
 *
 * What each step stands for (type, function, file):
 *   Sender                    `Output.send` (Output.swift). Lock-free: `DeliveryLatch.tryClaim` and the read of the
 *                             round's list (`Output.deliver(_:to:in:)`, Output+Delivery.swift), the round, then
 *                             `DeliveryLatch.tryRelease`; if that fails or the round found a dead responder,
 *                             `Output.finishRound(deadFound:by:)` and `Output.deliverRounds` (Output+Delivery.swift).
 *                             Locked, after a failed claim: `DeliveryStateMachine.send`, which calls
 *                             `SubscriberList.claimOrMarkWorkQueued` (-> `DeliveryLatch.claimOrMarkWorkQueued`) and
 *                             returns `.deliver(event, subscribers.roundEntries)` or appends the event to `pending`.
 *   takeIdleOrMarkWorkQueued     `DeliveryLatch.takeIdleOrMarkWorkQueued(settingTo:)`, the compare-and-swap loop behind
 *                             `claimOrMarkWorkQueued` and `beginChangingEntries`.
 *   deliverRound              the loop of `Output.deliver(_:to:in:)` (Output+Delivery.swift): a responder entry whose
 *                             responder is gone (`ResponderEntry.deliverNow` returns false) is marked `isDead`, and the
 *                             round returns `deadFound`.
 *   finishRound               `DeliveryStateMachine.finishRound(deadFound:by:subscribers:)` under the lock: first
 *                             `SubscriberList.finishRound(deadFound:)` (install the changed list, remove the entries the
 *                             round found dead), then `DeliveryStateMachine.next(for:after:subscribers:)` (pop a pending event
 *                             and keep the delivery, or let it go; both `DeliveryLatch.settle(holder:keeping:)`).
 *   Subscriber                `Output.add` (Output+Subscribing.swift) -> `SubscriberList.add`, then
 *                             `SubscriptionHandle.cancel` -> `Output.remove` -> `SubscriberList.cancel` ->
 *                             `remove`. Both change the list in `SubscriberList.changeEntries`: in place
 *                             between `DeliveryLatch.beginChangingEntries` and `endChangingEntries` when nobody holds
 *                             the delivery, else on a changed copy, work marked queued for the holder.
 *   ResponderDeinit           the responder's `deinit` begins: its weak reference reads `nil` from then on.
 *
 * Steps. Every access to the word is a step of its own, as each `eventbus_atomic_*` call is one atomic operation, and
 * so is the CAS loop's every load and compare-and-swap. What no other thread can observe in between shares a step
 * with its neighbour, which removes interleavings that no thread can tell apart: taking the lock and the next load of
 * the word; the work done under the lock while this thread holds the delivery, up to the change of the word that ends
 * it (a claim then fails, and a locked thread waits for the lock); a change of the list and the unlock after it; and a
 * round's passes over its entries, which touch only their entry and run a handler, while the round's list is frozen.
 *
 * Properties, as assertions checked in every reachable state:
 *   - every event reaches the token-owned entry exactly once, and every entry sees each sender's events in order;
 *   - no entry receives an event sent after its cancel returned, and every entry receives each event sent after its
 *     subscribe returned whose round ended before its cancel began;
 *   - one round at a time, never run by a thread that holds the lock;
 *   - the round's list changes only under the lock, by the holder of the delivery or while the word is CHANGING,
 *     and never while a lock-free holder reads it; a lock holder never finds the word CHANGING; a responder entry found
 *     dead is removed at the end of that round;
 *   - when every thread has returned: the latch is idle, the lock free, nothing changed or pending, and the round's
 *     list holds exactly the entries not removed.
 * The safety run also fails on an invalid end state (a thread blocked for ever: a deadlock); the liveness run checks
 * that every execution ends (`terminates`), so that no loop can spin for ever.
 *
 * Not modelled: replay windows and the trace hook (with either, a send always takes the lock), sends and cancels from
 * inside a handler, queued delivery contexts, compaction of the list, and pruning.
 *
 * Flags (spin runs the C preprocessor): SEEDED_BUG=1 makes the holder let go of the delivery before it installs the
 * changed list, so a lock-free send claims it and reads the list while it is replaced; SEEDED_BUG=2 makes
 * `tryRelease` let go even when work is queued, so a queued event is never delivered. USER_VISIBLE_ONLY drops the
 * assertions on the protocol's internals, keeping those on what subscribers receive and on the final state: the
 * seeded bugs must be found with it too. CYCLES sets how many entries the subscriber thread adds and cancels (2).
 */

#define WORK_QUEUED   1
#define CHANGING  2
#define BITS(t)   ((t) * 4)
#define HOLDER(w) ((w) / 4)

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

byte word = 0;
byte lockOwner = 0;
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

/* A round: `event` to every entry of `list`, with no lock held, in two steps: it starts, then it runs the loop of
   `Output.deliver(_:to:in:)` and ends. A responder entry whose responder is gone (`ResponderEntry.deliverNow` returns
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

/* `SubscriberList.finishRound(deadFound:)`: install the changed list, then remove the entries the round found dead
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

/* `DeliveryStateMachine.next(for:after:subscribers:)`: pop a pending event and keep the delivery, or settle idle
   (`DeliveryLatch.settle(holder:keeping:)`). */
inline nextAction(me) {
  if
  :: nempty(pendingEvents) -> pendingEvents?event; word = BITS(me); list = roundList; hasNext = true
  :: empty(pendingEvents) -> word = 0; list = 0; hasNext = false
  fi
}

/* `Output.finishRound(deadFound:by:)`: `DeliveryStateMachine.finishRound(deadFound:by:subscribers:)` under the lock.
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
       (`Output.deliver(_:to:in:)`), frozen until it lets go. */
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

ltl terminates { <> finished }
