import QuarryCore
