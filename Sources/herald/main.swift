import HeraldCLI

#if canImport(Glibc)
import Glibc
#endif

exit(await runHerald(Array(CommandLine.arguments.dropFirst())))
