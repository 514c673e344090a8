print("thumbtable")
