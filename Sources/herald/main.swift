import HeraldCLI

#if canImport(Glibc)
import Glibc
#endif

exit(runHerald(Array(CommandLine.arguments.dropFirst())))
