/// Exit statuses: 0 ok, 1 the command ran and found errors or failed, 2 the command line was wrong.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
}
