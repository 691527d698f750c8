import Foundation

/// The machine a run measured on, for the `machine` field of a report: absolute times mean little without it.
public enum Machine {
  /// For example `Linux x86_64, 2 CPUs (AMD EPYC 7B13), 24 GiB`.
  public static var description: String {
    let processInfo = ProcessInfo.processInfo
    let gibibytes = Double(processInfo.physicalMemory) / Double(1 << 30)
    let model = processorModel.map { " (\($0))" } ?? ""
    let cpus = processInfo.activeProcessorCount
    return "\(operatingSystem) \(architecture), \(cpus) \(cpus == 1 ? "CPU" : "CPUs")\(model), "
      + "\(FigureFormat.decimal(gibibytes, fractionDigits: 0)) GiB"
  }

  /// The processor's model name where the system tells it (`/proc/cpuinfo`), else `nil`.
  private static var processorModel: String? {
    guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
    for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      return model.isEmpty ? nil : model
    }
    return nil
  }

  /// The operating system the run was built for.
  package static var operatingSystem: String {
    #if os(Linux)
      "Linux"
    #elseif os(macOS)
      "macOS"
    #elseif os(iOS)
      "iOS"
    #elseif os(tvOS)
      "tvOS"
    #elseif os(watchOS)
      "watchOS"
    #elseif os(Windows)
      "Windows"
    #else
      "unknown OS"
    #endif
  }

  /// The processor architecture the run was built for.
  package static var architecture: String {
    #if arch(x86_64)
      "x86_64"
    #elseif arch(arm64)
      "arm64"
    #elseif arch(i386)
      "i386"
    #elseif arch(arm)
      "arm"
    #else
      "unknown architecture"
    #endif
  }
}
