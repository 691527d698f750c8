#if canImport(Glibc)
  import CSpawnShim
  import Glibc

  /// Runs `command` with `/bin/sh -c`, its standard input, output and error the check's, and every other descriptor
  /// closed in the child before it starts (`posix_spawn_file_actions_addclosefrom_np`), so that nothing it starts
  /// holds one of the check's sockets, whatever other threads open meanwhile; waits for it. Whether it exited with 0.
  func spawnShell(_ command: String) -> Bool {
    var actions = posix_spawn_file_actions_t()
    guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
    defer { posix_spawn_file_actions_destroy(&actions) }
    let closing = c_spawn_shim_add_close_from(&actions, 3)
    guard closing == 0 else {
      say("# cannot close the check's descriptors in \(command): error \(closing)")
      return false
    }
    let words: [String] = ["/bin/sh", "-c", command]
    let arguments = words.map { strdup($0) }
    defer { for argument in arguments { free(argument) } }
    var argv = arguments + [nil]
    var pid = pid_t()
    guard posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ) == 0 else { return false }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    // Exited (the low 7 bits 0) with status 0.
    return status & 0x7f == 0 && (status >> 8) & 0xff == 0
  }
#endif
