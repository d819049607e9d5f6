xyz abc

