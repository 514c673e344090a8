import Foundation

// Placeholder: the disk cache is being written (see the pipeline issue).
