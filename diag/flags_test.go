package diag

import "flag"

var spread = flag.Bool("spread", false, "measure the estimators' spread over seeds")

var dump = flag.String("dump", "", "directory to write the fixed arrays into")
